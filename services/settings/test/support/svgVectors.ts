/**
 * SVG logos that carried script or outside loads past the hand-written filter, each as it was uploaded. Every one
 * must come out of an upload inert (or be refused): no script, no animation that sets a link, no embedded document,
 * no DTD, no style sheet that loads another.
 */
export const SVG_BYPASSES: ReadonlyArray<readonly [string, string]> = [
  [
    'an entity-encoded javascript: link',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><a xlink:href="&#106;avascript:alert(document.domain)"><rect width="10" height="10"/></a></svg>',
  ],
  [
    'a <set> that turns a link into javascript:',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><a href="#x"><set attributeName="href" to="&#x6A;avascript:alert(1)"/><rect width="10" height="10"/></a></svg>',
  ],
  [
    'an <animate> that turns a link into javascript:',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><a href="#x"><animate attributeName="href" values="&#106;avascript:alert(1)" begin="0s"/><rect width="10" height="10"/></a></svg>',
  ],
  [
    'an XHTML iframe in a prefixed foreignObject',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg" width="10" height="10"><s:foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" srcdoc="&lt;script&gt;parent.alert(1)&lt;/script&gt;"/></s:foreignObject><rect width="10" height="10"/></svg>',
  ],
  [
    'an external DTD',
    '<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "https://evil.example/svg.dtd"><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
  ],
  [
    'a style sheet that imports another',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><style>@import url("https://evil.example/steal.css");</style><rect width="10" height="10"/></svg>',
  ],
  [
    'an event handler with a namespace prefix and a script under another prefix',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><s:script>alert(2)</s:script><rect width="10" height="10"/></svg>',
  ],
];

/** What must not be left in a stored SVG logo: anything that runs, loads or links out. */
export const ACTIVE_SVG = [/avascript/i, /&#/, /<(?:\w+:)?(?:script|set|animate|iframe|foreignObject|style)\b/i, /<!DOCTYPE/i, /<!ENTITY/i, /@import/i, /srcdoc/i, /\son[a-z]+\s*=/i, /evil\.example/];

/** A logo as a design tool exports it: gradient, paths, text, a viewBox and an inline style. */
export const NORMAL_SVG = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!-- exported -->',
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 120 40" width="120" height="40">',
  '<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#0a84ff"/><stop offset="1" stop-color="#5e5ce6"/></linearGradient></defs>',
  '<rect width="120" height="40" rx="6" fill="url(#g)"/>',
  '<path d="M10 30 L20 10 L30 30 Z" style="fill:#fff"/>',
  '<text x="40" y="26" font-family="Helvetica" font-size="14" fill="#fff">Loja</text>',
  '</svg>',
].join('\n');
