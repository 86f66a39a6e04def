// Times in the viewer's own time zone: every <time datetime="ISO 8601"> on a page (the server
// writes UTC, "2027-01-04 09:30 UTC") is rewritten as the viewer's local time with the zone
// named, "2027-01-04 18:30 GMT+9"; the title keeps the zone's full name and the UTC time.
(function () {
  "use strict";
  const two = (n) => String(n).padStart(2, "0");
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zoneName = (when) => {
    const part = new Intl.DateTimeFormat("en-GB", { timeZoneName: "short" })
      .formatToParts(when).find((p) => p.type === "timeZoneName");
    return part ? part.value : zone;
  };

  function render(node) {
    const when = new Date(node.getAttribute("datetime"));
    if (Number.isNaN(when.getTime()) || !node.getAttribute("datetime").includes("T")) return; // a date alone
    const date = `${when.getFullYear()}-${two(when.getMonth() + 1)}-${two(when.getDate())}`;
    const time = `${two(when.getHours())}:${two(when.getMinutes())}`;
    node.textContent = `${date} ${time} ${zoneName(when)}`;
    node.title = `${zone} · ${when.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  }

  function renderAll(root) {
    (root || document).querySelectorAll("time[datetime]").forEach(render);
  }

  window.LocalTime = { render: renderAll };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => renderAll());
  else renderAll();
})();
