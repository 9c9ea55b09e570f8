// The page's pieces: server texts (Telegram's HTML subset, anything else as plain text),
// elements made with such a text, a passing message.
"use strict";

const dom = (() => {
  const ALLOWED = new Set(["B", "STRONG", "I", "EM", "U", "S", "CODE", "PRE"]);

  function html(target, text) {
    target.replaceChildren();
    const parsed = new DOMParser().parseFromString(text || "", "text/html").body;
    (function copy(from, to) {
      for (const node of from.childNodes) {
        if (node.nodeType === Node.TEXT_NODE) {
          to.append(node.textContent);
        } else if (node.nodeType === Node.ELEMENT_NODE) {
          const kept = ALLOWED.has(node.tagName) ? document.createElement(node.tagName) : null;
          copy(node, kept || to);
          if (kept) to.append(kept);
        }
      }
    })(parsed, target);
    return target;
  }

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) html(made, text);
    return made;
  }

  function toast(text) {
    const box = document.getElementById("toast");
    html(box, text);
    box.hidden = !text;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  return { html, element, toast };
})();
