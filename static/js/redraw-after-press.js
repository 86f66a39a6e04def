// A page that redraws itself on live updates (the match page, the tournament page) redraws through
// this, so a press is never lost to a redraw. A redraw between a press and its release replaces
// what is under the pointer, and the browser sends the click to what the press and the release
// share, not to the button: the move was lost without a word (stop 35's draft room, a coach
// saving a line-up as the other said ready). A redraw asked for while a press lasts waits for the
// release and for the click it makes, then draws the newest thing asked for.
(function () {
  window.redrawAfterPress = function (area, draw) {
    let pressed = false;
    let held = null; // the arguments of the newest redraw asked for during the press
    area.addEventListener("pointerdown", () => { pressed = true; }, true);
    function released() {
      if (!pressed) return;
      setTimeout(() => { // after the click the release makes has been dispatched
        pressed = false;
        const args = held;
        held = null;
        if (args) draw(...args);
      }, 0);
    }
    window.addEventListener("pointerup", released, true);
    window.addEventListener("pointercancel", released, true);
    return (...args) => { if (pressed) held = args; else draw(...args); };
  };
})();
