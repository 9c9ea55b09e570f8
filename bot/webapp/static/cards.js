// Cards drawn as cards: a face with its corners and pips, or a back.
"use strict";

const cards = (() => {
  const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };

  function face(code) {
    const card = document.createElement("div");
    card.className = "card";
    card.dataset.card = code;
    if (code === "JK") {
      card.classList.add("joker");
      card.append(corner("★", "J"), pip("🃏"), corner("★", "J", true));
      return card;
    }
    const rank = code.slice(0, -1);
    const suit = SUITS[code.slice(-1)];
    card.classList.add(code.endsWith("H") || code.endsWith("D") ? "red" : "black");
    card.append(corner(rank, suit), pip(suit), corner(rank, suit, true));
    return card;
  }

  function corner(rank, suit, flipped) {
    const box = document.createElement("span");
    box.className = flipped ? "corner flipped" : "corner";
    const r = document.createElement("b");
    r.textContent = rank;
    const s = document.createElement("i");
    s.textContent = suit;
    box.append(r, s);
    return box;
  }

  function pip(symbol) {
    const big = document.createElement("span");
    big.className = "pip";
    big.textContent = symbol;
    return big;
  }

  function back() {
    const card = document.createElement("div");
    card.className = "card back";
    return card;
  }

  return { face, back };
})();
