// Starts Swagger UI on the page of GET {ns}/doc/ui (a file of its own: the page allows no
// inline script). The document's URL comes from the page, relative to it.
"use strict";
(function () {
  var root = document.getElementById("swagger-ui");

  // Names and keyboard access that Swagger UI's markup lacks (WCAG 4.1.2, 2.5.3, 2.1.1), given
  // to its elements whenever it renders them: [elements to repair, repair].
  function label(text) {
    return function (element) { element.setAttribute("aria-label", text); };
  }
  var repairs = [
    ["#servers:not([aria-label])", label("Server")],
    ["tr[data-param-name] select:not([aria-label])", function (element) {
      label(element.closest("tr").getAttribute("data-param-name"))(element);
    }],
    ["textarea.body-param__text:not([aria-label])", label("Request body")],
    [".copy-to-clipboard > button:not([aria-label])", label("Copy to clipboard")],
    ["button.close-modal:not([aria-label])", label("Close")],
    ["div.modal-ux:not([role])", function (element) {
      element.setAttribute("role", "dialog");
      element.setAttribute("aria-modal", "true");
      label("Available authorizations")(element);
    }],
    // Named by their ids, which hides their visible labels ("Username:") from screen readers.
    [".auth-container input[aria-label^='auth-']", function (element) {
      element.removeAttribute("aria-label");
    }],
    // Its accessible name must contain the visible "Authorize".
    ["button.modal-btn.authorize[aria-label='Apply credentials']", label("Authorize")],
    // Code blocks scroll: keyboard users must be able to focus them to scroll.
    ["pre.microlight:not([tabindex])", function (element) {
      element.setAttribute("tabindex", "0");
    }],
  ];
  function repair() {
    repairs.forEach(function (item) {
      root.querySelectorAll(item[0]).forEach(item[1]);
    });
  }
  new MutationObserver(repair).observe(root, { childList: true, subtree: true });

  window.ui = SwaggerUIBundle({
    url: new URL(root.getAttribute("data-spec-url"), document.baseURI).href,
    domNode: root,
    layout: "BaseLayout",
    presets: [SwaggerUIBundle.presets.apis],
    // Deep links would put a link inside each operation's expand button (nested controls).
    deepLinking: false,
    // Swagger UI would otherwise send our document to an outside validator.
    validatorUrl: null,
    displayRequestDuration: true,
  });
})();
