// The product mark, drawn inline so the loading overlay needs no network: a rounded tile with
// three delivery blocks on a day's timeline, the middle one caught (amber, held by a hook).
// public/favicon.svg is the same drawing.
export function Logo({ className, decorative }: { className?: string; decorative?: boolean }) {
  return (
    <svg
      className={className}
      viewBox="0 0 48 48"
      width="48"
      height="48"
      role="img"
      aria-label="BlockCatch"
      aria-hidden={decorative ? true : undefined}
    >
      <rect width="48" height="48" rx="12" fill="#0b5cad" />
      <rect x="9" y="11" width="18" height="7" rx="2.5" fill="#fff" opacity="0.55" />
      <rect x="15" y="21" width="24" height="7" rx="2.5" fill="#f2a900" />
      <rect x="9" y="31" width="14" height="7" rx="2.5" fill="#fff" opacity="0.55" />
      <path d="M33 13v8" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" fill="none" />
      <path
        d="M33 28v3a4 4 0 0 1-8 0"
        stroke="#fff"
        strokeWidth="3.2"
        strokeLinecap="round"
        fill="none"
      />
    </svg>
  );
}

/** The mark with the BlockCatch wordmark beside it, for the header. */
export function Wordmark() {
  return (
    <>
      <Logo decorative />
      <span aria-hidden="true">
        Block<span className="wordmark-catch">Catch</span>
      </span>
    </>
  );
}
