// Starts the live match page (templates/matches/live.html); a file, not an inline script, for the CSP.
MatchClient.live(document.getElementById("match"));
