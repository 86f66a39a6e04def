// Draws the Annihilageddon card gallery (templates/games/annihilageddon_gallery.html) with the renderer in
// js/games/annihilageddon.js; a file, not an inline script, for the CSP.
AnnihilageddonGallery.render(document.getElementById("an-gallery"));
