// Renders the landing page into index.html at build time, so / paints its content as soon as the
// HTML and CSS arrive rather than after React, the router and i18next have run (on a slow phone
// that is most of a second). src/prerender.tsx renders it through the app's own tree; main.tsx
// hydrates it; the boot script hides it from visitors it does not fit (another path, Spanish, a
// kept session) before the first paint.
import { createHash } from 'node:crypto';
import { createServer, type Plugin } from 'vite';

interface PrerenderModule {
  renderLanding(): string;
  bootScript(): string;
}

export function prerenderLanding(): Plugin {
  let root = '';
  let base = '/';
  let configFile: string | undefined;
  let landing = '';
  let bootFile = '';
  return {
    name: 'blockcatch-prerender-landing',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
      configFile = config.configFile;
    },
    async buildStart() {
      // Vite's module runner loads the app's sources as the dev server would, outside a browser.
      const server = await createServer({
        root,
        configFile: configFile ?? false,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        // Nothing here runs in a browser: no dependency pre-bundling for one.
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const app = (await server.ssrLoadModule('/src/prerender.tsx')) as PrerenderModule;
        landing = app.renderLanding();
        const boot = app.bootScript();
        const hash = createHash('sha256').update(boot).digest('base64url').slice(0, 8);
        bootFile = `assets/boot-${hash}.js`;
        this.emitFile({ type: 'asset', fileName: bootFile, source: boot });
      } finally {
        await server.close();
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const empty = '<div id="root"></div>';
        if (!html.includes(empty)) this.error(`index.html has no ${empty} to render into`);
        return {
          html: html.replace(empty, `<div id="root" data-prerendered>${landing}</div>`),
          // First in the head: a classic script there runs before the first paint (a module script would
          // not), and it must not queue behind the modules for one of the six connections.
          tags: [{ tag: 'script', attrs: { src: `${base}${bootFile}` }, injectTo: 'head-prepend' }],
        };
      },
    },
  };
}
