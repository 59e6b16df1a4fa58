// /docs: Swagger UI (vendored from swagger-ui-dist, see scripts/vendor-swagger-ui.sh) renders the
// API's OpenAPI 3.1 document. A file of its own, so the page needs no inline script (CSP).
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  layout: "BaseLayout",
  presets: [SwaggerUIBundle.presets.apis],
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
  validatorUrl: null,
});
