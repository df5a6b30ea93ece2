// A titled section of the Filters form (Warehouses, Pay, Schedule, Alerts), linkable by its id.
import type { ReactNode } from 'react';

export function FiltersSection({
  id,
  title,
  hint,
  children,
}: {
  id: string;
  title: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <section id={id} className="filters-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {hint && <p className="muted">{hint}</p>}
      {children}
    </section>
  );
}
