// A progress bar in stages: delivered, then sent (handed to the provider), then failed and
// skipped, over the part still queued. The bar is a meter for assistive technology: the delivered
// share, with the stages named in its label.
import { type JobTally, progressSegments } from './send-jobs.js';

export function StackedProgress({ tally, label }: { tally: JobTally; label: string }) {
  const segments = progressSegments(tally);
  return (
    <div
      className="stacked-progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={tally.total}
      aria-valuenow={tally.delivered}
    >
      {(['delivered', 'sent', 'failed', 'skipped'] as const).map((stage) =>
        segments[stage] > 0 ? (
          <span
            key={stage}
            className={`stage stage-${stage}`}
            data-stage={stage}
            style={{ width: `${segments[stage]}%` }}
          />
        ) : null,
      )}
    </div>
  );
}
