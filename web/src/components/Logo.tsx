// The product mark, drawn inline so the loading overlay needs no network.
export function Logo({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 48 48"
      width="48"
      height="48"
      role="img"
      aria-label="BlockCatch"
    >
      <rect x="4" y="4" width="40" height="40" rx="10" fill="currentColor" />
      <path
        d="M14 25l7 7 13-15"
        fill="none"
        stroke="#fff"
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
