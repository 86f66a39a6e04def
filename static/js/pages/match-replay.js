// Starts the replay page (templates/matches/replay.html): a file of its own, so the
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
MatchClient.replay(document.getElementById("match"));
