// The little of Telegram's Mini App bridge this page needs, without loading Telegram's
// script from its CDN: the signed initData and the theme come in the URL's fragment
// (#tgWebAppData=...&tgWebAppThemeParams=...), events go out through the client's proxy.
"use strict";

const telegram = (() => {
  const KEY = "cardtable.launch";
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has("tgWebAppData")) {
    sessionStorage.setItem(KEY, location.hash.slice(1));  // a reload keeps the launch data
  }
  const launch = new URLSearchParams(
    fragment.has("tgWebAppData") ? location.hash.slice(1) : sessionStorage.getItem(KEY) || "");
  const initData = launch.get("tgWebAppData") || "";
  const startParam = new URLSearchParams(initData).get("start_param") || "";

  function post(type, data) {
    const message = JSON.stringify({ eventType: type, eventData: data || {} });
    if (window.TelegramWebviewProxy) {
      window.TelegramWebviewProxy.postEvent(type, JSON.stringify(data || {}));
    } else if (window.external && "notify" in window.external) {
      window.external.notify(message);
    } else if (window.parent !== window) {
      window.parent.postMessage(message, "*");
    }
  }

  function theme(params) {
    const style = document.documentElement.style;
    for (const [key, value] of Object.entries(params || {})) {
      if (/^#[0-9a-f]{3,8}$/i.test(value)) {
        style.setProperty("--tg-" + key.replace(/_/g, "-"), value);
      }
    }
  }

  function received(type, data) {
    if (type === "theme_changed" && data) theme(data.theme_params);
  }

  try {
    theme(JSON.parse(launch.get("tgWebAppThemeParams") || "{}"));
  } catch (error) {
    // no theme: the page's own colours
  }
  window.Telegram = window.Telegram || {};
  window.Telegram.WebView = { receiveEvent: received };  // the mobile clients call this
  window.addEventListener("message", (event) => {  // Telegram Web posts these
    try {
      const message = JSON.parse(event.data);
      received(message.eventType, message.eventData);
    } catch (error) {
      // not Telegram's
    }
  });
  return {
    initData,
    startParam,
    ready() {
      post("web_app_ready");
      post("web_app_expand");
    },
  };
})();
