// Starts a tournament page (templates/tournaments/page.html); a file, not an inline script, for the CSP.
TournamentPage.start(document.getElementById("tournament"));
