/**
 * Stand-ins for next/navigation and next/link in the B3 bundle (the editor runs outside a Next
 * router there). Navigation does nothing; links are plain anchors.
 */
import type { AnchorHTMLAttributes } from "react";

const router = { push() {}, replace() {}, back() {}, forward() {}, refresh() {}, prefetch() {} };
export const useRouter = () => router;
export const usePathname = () => window.location.pathname;
export const useSearchParams = () => new URLSearchParams(window.location.search);
export const useParams = () => ({});
export const redirect = () => undefined;
export const notFound = () => undefined;

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  href: string | { pathname?: string };
  prefetch?: boolean;
};

export default function Link({ href, prefetch, ...anchor }: LinkProps) {
  void prefetch;
  return <a href={typeof href === "string" ? href : href.pathname} {...anchor} />;
}
