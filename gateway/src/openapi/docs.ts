import path from 'node:path';
import express, { type Router } from 'express';

// Only these files of swagger-ui-dist are served; its own index.html points at a demo API.
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'favicon-16x16.png'];

const page = (title: string) => `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>${title}</title>
    <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="/docs/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/docs/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="/docs/init.js" charset="UTF-8"></script>
  </body>
</html>
`;

// validatorUrl null: the default badge calls an external validator, and the page must work offline.
const init = (documentUrl: string) => `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '${documentUrl}',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

export interface DocsPage {
  /** The document the page shows (a path on the same listener): `/v1/openapi.json`, or the admin listener's own. */
  documentUrl: string;
  title: string;
}

const PUBLIC_DOCS: DocsPage = { documentUrl: '/v1/openapi.json', title: 'Payments Platform API' };

/**
 * The docs page, served from swagger-ui-dist's own files (no CDN). Mount at /docs. Each listener serves its own
 * document there, so Try-it-out calls the listener whose routes the page lists.
 */
export function docsRouter(docs: DocsPage = PUBLIC_DOCS): Router {
  const html = page(docs.title);
  const script = init(docs.documentUrl);
  const dir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const router = express.Router();
  router.get('/', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(html);
  });
  router.get('/init.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'no-cache').send(script);
  });
  for (const asset of ASSETS) {
    router.get(`/${asset}`, (_req, res, next) => {
      res.sendFile(path.join(dir, asset), { maxAge: '1d' }, (error?: Error) => (error ? next(error) : undefined));
    });
  }
  return router;
}
