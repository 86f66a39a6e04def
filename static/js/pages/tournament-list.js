// The new-tournament form (templates/tournaments/list.html): the check-in times are typed in the
// organiser's own time zone, which the form sends along and names beside the inputs.
(function () {
  "use strict";
  const form = document.querySelector("[data-testid=new-tournament]");
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!form || !zone) return;
  form.querySelector("input[name=time_zone]").value = zone;
  form.querySelectorAll("[data-testid=form-zone]").forEach((node) => { node.textContent = `(${zone} time)`; });
})();
