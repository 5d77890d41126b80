import type { AuditAction, AuditEntry } from '../../../../common/admin';

const ACTION_LABELS: Record<AuditAction, string> = {
  'login-succeeded': 'Logged in',
  'login-failed': 'Wrong password',
  'login-locked': 'Login locked',
  'browser-recognised': 'Browser let in with a sign-in link',
  logout: 'Logged out',
  'inventory-updated': 'Variant updated',
  'inventory-synced': 'Synced with Shopify',
  'custom-title-set': 'Custom title set',
  'custom-title-cleared': 'Custom title cleared',
  'payment-resolved': 'Payment marked resolved',
  'payment-attached': 'Payment attached to a checkout',
  'handoff-retried': 'Shopify hand-off retried',
  'payment-refunded': 'Payment refunded',
  'webhook-created': 'Webhook endpoint added',
  'webhook-updated': 'Webhook endpoint changed',
  'webhook-secret-rotated': 'Webhook signing secret rotated',
  'webhook-redelivered': 'Webhook deliveries sent again',
  'webhook-disabled': 'Webhook endpoint disabled after failing for a day',
};

export function auditActionLabel(action: AuditAction): string {
  return ACTION_LABELS[action];
}

function show(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One change of an audit entry in words: 'pogPrice: "10.00" → "12.50"'. */
export function auditChangeText(change: AuditEntry['changes'][number]): string {
  return `${change.field}: ${show(change.from)} → ${show(change.to)}`;
}
