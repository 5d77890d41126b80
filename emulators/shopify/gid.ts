// Admin API global ids are plain `gid://shopify/Type/123` strings (never base64, unlike old
// Storefront ids), and the numeric tail is the REST/legacy id.
export function toGid(type: string, legacyId: string): string {
  return `gid://shopify/${type}/${legacyId}`;
}

export function parseGid(gid: string): { type: string; legacyId: string } | null {
  const match = /^gid:\/\/shopify\/(\w+)\/(\d+)(\?.*)?$/.exec(gid);
  return match ? { type: match[1], legacyId: match[2] } : null;
}
