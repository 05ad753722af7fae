import { clsx, type ClassValue } from "clsx";

/** Joins class names (clsx); later classes do not override earlier ones, so keep variants disjoint. */
export const cn = (...inputs: ClassValue[]): string => clsx(inputs);
