import { describe, expect, it } from 'vitest';
import { badgeVariants } from './badge';
import { buttonVariants } from './button';
import { dialogContentVariants } from './dialog';
import { navItem } from './nav-item';
import { sheetContentVariants, sheetDescriptionVariants, sheetTitleVariants } from './sheet';
import { skeletonVariants } from './skeleton';

// `cn` is clsx: it keeps every class, and when two utilities set the same property under the same
// variant the stylesheet's order decides which applies, not the order of the classes. So each
// combination of a component's variants must set each property once.

const SIDES = { '': ['t', 'r', 'b', 'l'], x: ['r', 'l'], y: ['t', 'b'], t: ['t'], r: ['r'], b: ['b'], l: ['l'] } as const;
const CORNERS = { '': ['tl', 'tr', 'br', 'bl'], t: ['tl', 'tr'], b: ['bl', 'br'], l: ['tl', 'bl'], r: ['tr', 'br'] } as const;
const FONT_SIZE = /^text-(xs|sm|base|lg|\d?xl|\[\d)/;

/**
 * The properties a utility sets ('sm:padding-b'), for the utilities these variants use; an unknown
 * one is its own property. Padding, corners and insets are split into sides, so `p-5` and `pb-4` clash.
 */
function properties(cls: string): string[] {
  const at = cls.lastIndexOf(':', cls.lastIndexOf(']') > cls.lastIndexOf(':') ? cls.indexOf('[') : undefined);
  const prefix = at === -1 ? '' : cls.slice(0, at + 1);
  const u = cls.slice(at + 1).replace(/^-/, '');
  const names = ((): string[] => {
    if (/^(flex|grid|hidden|block|inline|inline-flex|inline-block|contents)$/.test(u)) return ['display'];
    let m = /^p([xytrbl]?)-/.exec(u);
    if (m) return SIDES[m[1] as keyof typeof SIDES].map((s) => `padding-${s}`);
    m = /^rounded(?:-([tblr]))?(?:-|$)/.exec(u);
    if (m) return CORNERS[(m[1] ?? '') as keyof typeof CORNERS].map((c) => `radius-${c}`);
    m = /^(top|bottom|left|right)-/.exec(u);
    if (m) return [m[1]];
    if (/^inset-x-/.test(u)) return ['left', 'right'];
    if (/^size-/.test(u)) return ['width', 'height'];
    m = /^(w|h)-/.exec(u);
    if (m) return [m[1] === 'w' ? 'width' : 'height'];
    m = /^(min-h|min-w|max-w|max-h|bg|whitespace|opacity|leading|tracking|gap)-/.exec(u);
    if (m) return [m[1]];
    if (/^text-(left|center|right|justify)$/.test(u)) return ['text-align'];
    if (FONT_SIZE.test(u)) return ['font-size'];
    if (/^text-/.test(u)) return ['color'];
    if (/^font-(thin|light|normal|medium|semibold|bold|extrabold|black)$/.test(u)) return ['font-weight'];
    if (/^border(-\d+)?$/.test(u)) return ['border-width'];
    if (/^border-(?![trblxy]\b)/.test(u)) return ['border-color'];
    return [u];
  })();
  return names.map((n) => prefix + n);
}

/** The pairs of classes in `classes` that set the same property under the same variant. */
function clashes(classes: string): string[] {
  const owner = new Map<string, string>();
  const found = new Set<string>();
  for (const cls of classes.split(/\s+/).filter(Boolean))
    for (const p of properties(cls)) {
      const other = owner.get(p);
      if (other && other !== cls) found.add(`${other} / ${cls}`);
      owner.set(p, cls);
    }
  return [...found];
}

/** Every combination of the given options. */
function combinations(options: Record<string, readonly unknown[]>): Record<string, unknown>[] {
  return Object.entries(options).reduce<Record<string, unknown>[]>(
    (acc, [key, values]) => acc.flatMap((combo) => values.map((value) => ({ ...combo, [key]: value }))),
    [{}],
  );
}

describe('clashes', () => {
  it('finds utilities that set the same property under the same variant', () => {
    expect(clashes('px-4 px-2')).toEqual(['px-4 / px-2']);
    expect(clashes('p-5 pb-[max(1rem,env(safe-area-inset-bottom))]')).toHaveLength(1);
    expect(clashes('flex flex-col grid')).toEqual(['flex / grid']);
    expect(clashes('rounded-xl rounded-t-none')).toHaveLength(1);
    expect(clashes('h-11 size-11')).toEqual(['h-11 / size-11']);
    expect(clashes('text-xs text-sm')).toEqual(['text-xs / text-sm']);
    expect(clashes('sm:max-w-md sm:max-w-lg')).toEqual(['sm:max-w-md / sm:max-w-lg']);
    expect(clashes('border-input border-destructive/50')).toHaveLength(1);
    expect(clashes('hover:bg-muted hover:bg-destructive/10')).toHaveLength(1);
  });

  it('leaves different properties and different variants alone', () => {
    expect(clashes('text-sm text-brand text-center font-bold')).toEqual([]);
    expect(clashes('border border-input px-3 sm:border-transparent')).toEqual([]);
    expect(clashes('px-0 sm:px-3 bg-brand hover:bg-brand-hover')).toEqual([]);
    expect(clashes('flex max-md:hidden pt-5 px-5 pb-5')).toEqual([]);
    expect(clashes('[&_svg]:size-5 size-11 disabled:opacity-50')).toEqual([]);
  });
});

describe('component variants', () => {
  const cases: [string, (props: never) => string, Record<string, readonly unknown[]>][] = [
    [
      'button',
      buttonVariants,
      {
        variant: ['default', 'destructive', 'outline', 'outline-destructive', 'overlay', 'secondary', 'ghost', 'ghost-destructive', 'link'],
        size: ['default', 'sm', 'lg', 'icon', 'block', 'block-lg'],
        busy: [false, true],
      },
    ],
    ['badge', badgeVariants, { variant: ['default', 'secondary', 'outline', 'success', 'warning', 'destructive'] }],
    ['dialog', dialogContentVariants, { layout: ['stack', 'form'], edge: ['bottom', 'top'], width: ['md', 'lg'] }],
    ['sheet', sheetContentVariants, { width: ['panel', 'drawer'] }],
    ['sheet title', sheetTitleVariants, { size: ['lg', 'xl'] }],
    ['sheet description', sheetDescriptionVariants, { tone: ['muted', 'eyebrow'] }],
    ['skeleton', skeletonVariants, { shape: ['block', 'pill', 'cap', 'square'] }],
    ['nav item', navItem, { tone: ['plain', 'active', 'muted', 'soft', 'brand'] }],
  ];
  it.each(cases)('%s: each combination sets each property once', (_, variants, options) => {
    for (const combo of combinations(options)) expect(clashes(variants(combo as never)), JSON.stringify(combo)).toEqual([]);
  });

  it('gives a busy button a lighter disabled look, and a block button room to wrap', () => {
    expect(buttonVariants({ busy: true }).split(' ')).toContain('disabled:opacity-85');
    // Unavailable: grey on grey, not a faded colour (readable at AA contrast).
    expect(buttonVariants().split(' ')).toEqual(expect.arrayContaining(['disabled:bg-muted', 'disabled:text-muted-foreground']));
    expect(buttonVariants().split(' ')).not.toContain('disabled:opacity-50');
    expect(buttonVariants({ variant: 'ghost' }).split(' ')).not.toContain('disabled:bg-muted');
    expect(buttonVariants({ size: 'block-lg' }).split(' ')).toEqual(expect.arrayContaining(['min-h-12', 'w-full', 'whitespace-normal']));
  });

  it('pads a form dialog on every side, its top from the safe area at the top edge', () => {
    const bottom = dialogContentVariants({ layout: 'form' }).split(' ');
    expect(bottom).toEqual(expect.arrayContaining(['grid', 'px-5', 'pb-5', 'pt-5', 'bottom-0']));
    const top = dialogContentVariants({ layout: 'form', edge: 'top' }).split(' ');
    expect(top).toEqual(expect.arrayContaining(['grid', 'px-5', 'pb-5', 'top-0', 'pt-[max(1.5rem,env(safe-area-inset-top))]']));
    expect(top).not.toContain('pt-5');
  });
});
