import { describe, expect, it } from 'vitest';
import { cleanDescription, decodeEntities, firstDescriptionLine } from './clean-description';

describe('cleanDescription', () => {
  it('returns no lines for missing or blank input', () => {
    expect(cleanDescription(undefined)).toEqual([]);
    expect(cleanDescription(null)).toEqual([]);
    expect(cleanDescription('')).toEqual([]);
    expect(cleanDescription('  \n ')).toEqual([]);
    expect(cleanDescription('<p> </p><br/>')).toEqual([]);
  });

  it('strips markup and keeps plain text', () => {
    expect(cleanDescription('<p>A <strong>bold</strong> <em>cap</em>.</p>')).toEqual(['A bold cap.']);
    expect(cleanDescription('Plain text only')).toEqual(['Plain text only']);
    expect(cleanDescription('<a href="https://x.test/?a=1&b=2">Link</a> text')).toEqual(['Link text']);
  });

  it('turns <br> and closing block tags into line breaks', () => {
    expect(cleanDescription('One<br>Two<br/>Three<BR />Four')).toEqual(['One', 'Two', 'Three', 'Four']);
    expect(cleanDescription('<p>First</p><p>Second</p>')).toEqual(['First', 'Second']);
    expect(cleanDescription('<ul><li>Cotton</li><li>Made in USA</li></ul>')).toEqual(['Cotton', 'Made in USA']);
    expect(cleanDescription('<div>Outer<div>Inner</div></div>')).toEqual(['Outer', 'Inner']);
    expect(cleanDescription('<h2>Title</h2>Body')).toEqual(['Title', 'Body']);
  });

  it('honours plain newlines and collapses whitespace', () => {
    expect(cleanDescription('Line one\r\nLine   two\rLine\tthree')).toEqual(['Line one', 'Line two', 'Line three']);
  });

  it('decodes common entities, after stripping tags', () => {
    expect(cleanDescription('Tom &amp; Jerry &lt;3 &quot;caps&quot; &#39;90s &apos;ok&apos; a&nbsp;b &mdash; &ndash; &hellip;')).toEqual([
      "Tom & Jerry <3 \"caps\" '90s 'ok' a b \u2014 \u2013 \u2026",
    ]);
    expect(cleanDescription('&#169; &#x2122; &#X41;')).toEqual(['\u00a9 \u2122 A']);
    // An escaped tag is text, not markup.
    expect(cleanDescription('Use &lt;b&gt;bold&lt;/b&gt;')).toEqual(['Use <b>bold</b>']);
    // Decoding happens once.
    expect(cleanDescription('&amp;lt;')).toEqual(['&lt;']);
  });

  it('drops script/style contents and comments', () => {
    expect(cleanDescription('<style>.x{}</style>Hi<script>alert(1)</script><!-- note -->!')).toEqual(['Hi!']);
  });

  it('drops lines mentioning a size guide (any case) or containing a pipe', () => {
    expect(cleanDescription('<p>Soft cotton</p><p>See our SIZE GUIDE below</p><p>S | M | L</p><p>Size Guide</p><p>Unisex fit</p>')).toEqual(
      ['Soft cotton', 'Unisex fit'],
    );
  });

  it('keeps at most five lines', () => {
    const html = Array.from({ length: 8 }, (_, i) => `<p>Line ${i + 1}</p>`).join('');
    expect(cleanDescription(html)).toEqual(['Line 1', 'Line 2', 'Line 3', 'Line 4', 'Line 5']);
  });

  it('does not treat a lone < as a tag', () => {
    expect(cleanDescription('Size 3 < 4 and 5 > 2')).toEqual(['Size 3 < 4 and 5 > 2']);
  });
});

describe('decodeEntities', () => {
  it('leaves unknown and invalid entities as they are', () => {
    expect(decodeEntities('&unknown; &#0; &#xD800; &#99999999;')).toBe('&unknown; &#0; &#xD800; &#99999999;');
  });
});

describe('firstDescriptionLine', () => {
  it('returns the first cleaned line', () => {
    expect(firstDescriptionLine('<p>Size guide</p><p>Heavyweight cap</p><p>More</p>')).toBe('Heavyweight cap');
  });

  it('falls back when there is nothing to show', () => {
    expect(firstDescriptionLine('')).toBe('Heritage quality, exclusive design');
    expect(firstDescriptionLine(undefined)).toBe('Heritage quality, exclusive design');
    expect(firstDescriptionLine('<p>A | B</p>')).toBe('Heritage quality, exclusive design');
    expect(firstDescriptionLine(null, 'Other')).toBe('Other');
  });
});
