// A scorekept table's entry, as the keeper's private entry message shows it: its text and
// its buttons, each tap sent as a press of that button (the server checks it as one).
"use strict";

const keep = (() => {
  function draw(box, entry, busy, press) {
    box.replaceChildren();
    box.hidden = !entry;
    if (!entry) return;
    box.dataset.revision = entry.revision;
    box.append(dom.element("div", "keep-text", entry.text));
    for (const row of entry.rows) {
      const line = dom.element("div", "keep-row");
      for (const button of row) {
        const made = dom.element("button", "action", button.label);
        made.dataset.action = button.action;
        made.disabled = busy;
        made.addEventListener("click", () => press(button.action));
        line.append(made);
      }
      box.append(line);
    }
  }

  return { draw };
})();
