import { isValidElement, type ReactElement, type ReactNode } from "react";

/** Test helpers for the inspector's forms, rendered to server markup or kept as element trees. */

/** The opening tag of the element with `data-testid={testId}` in server markup ("" when absent). */
export const tagOf = (html: string, testId: string) =>
  new RegExp(`<[a-z]+[^>]*data-testid="${testId}"[^>]*>`).exec(html)?.[0] ?? "";

/** Every element of type `type` in a (shallow) element tree. */
export function elementsOf<P>(tree: ReactNode, type: (p: P) => ReactNode): ReactElement<P>[] {
  if (Array.isArray(tree)) return tree.flatMap((t: ReactNode) => elementsOf(t, type));
  if (!isValidElement<{ children?: ReactNode }>(tree)) return [];
  const here = tree.type === type ? [tree as unknown as ReactElement<P>] : [];
  return [...here, ...elementsOf(tree.props.children, type)];
}
