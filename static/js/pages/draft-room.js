// Starts the draft room (templates/drafts/draft_room.html): the live match client, then the draft's own parts.
// A file, not an inline script, for the CSP.
MatchClient.live(document.getElementById("match"));
DraftRoom.start(document.getElementById("match"));
