import { clsx, type ClassValue } from 'clsx';

/**
 * Joins class names (strings, arrays, `{ class: condition }` objects; falsy values are dropped).
 * It does not resolve Tailwind conflicts: with two utilities for the same property on an element,
 * the stylesheet's order decides, not the order here. So a component never lets a caller's class
 * fight one of its own: the caller picks a variant, or the component leaves that property to it.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
