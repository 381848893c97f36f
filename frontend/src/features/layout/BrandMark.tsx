/** The product mark: a flag-like card (red bands echo Canada) with a pass tick. Decorative. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg
      className="brand-mark"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="8" fill="#0f2a4a" />
      <rect x="6" y="9" width="20" height="14" rx="2.5" fill="#ffffff" />
      <path d="M8.5 9H11v14H8.5A2.5 2.5 0 0 1 6 20.5v-9A2.5 2.5 0 0 1 8.5 9Z" fill="#d0342a" />
      <path d="M21 9h2.5A2.5 2.5 0 0 1 26 11.5v9a2.5 2.5 0 0 1-2.5 2.5H21Z" fill="#d0342a" />
      <path
        d="m12.6 16.3 2.3 2.3 4.5-4.9"
        fill="none"
        stroke="#0f2a4a"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The product's short name, shown next to the mark. */
export const PRODUCT_NAME = 'TEF Prep Canada';
