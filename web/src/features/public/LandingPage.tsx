// Landing and sign-in at /: what the service does, how it works in three steps, the weekly price
// (the gateway's setting), the facts drivers ask first, and the sign-in form.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicFooter } from '../../components/PublicFooter.js';
import { SignInForm } from '../../components/SignInForm.js';
import { ButtonLink } from '../../components/ui/Button.js';
import { Card } from '../../components/ui/Card.js';

const STEPS = ['account', 'filters', 'switch'] as const;

/**
 * The weekly price from the gateway's public price route. A plain fetch: the landing page is the
 * first load, which carries neither the SDK nor the query library.
 */
function useWeeklyPriceCents(): number | null {
  const [cents, setCents] = useState<number | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    // Read here, not at import: the page is also rendered at build time, outside a browser.
    const baseUrl =
      (import.meta.env.VITE_GATEWAY_URL as string | undefined) ?? window.location.origin;
    fetch(`${baseUrl}/api/flex/v1/price`, { signal: controller.signal })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { weeklyPriceCents?: unknown } | null) => {
        if (typeof body?.weeklyPriceCents === 'number') setCents(body.weeklyPriceCents);
      })
      .catch(() => {});
    return () => controller.abort();
  }, []);
  return cents;
}

export default function LandingPage() {
  const { t } = useTranslation();
  const cents = useWeeklyPriceCents();
  const price =
    cents === null
      ? null
      : // US dollars as written in the US in either language ("$25.00"), as useFormat's money.
        new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
  return (
    <>
      <main className="page landing">
        <section className="hero" aria-labelledby="landing-title">
          <p className="eyebrow">{t('landing.eyebrow')}</p>
          <h1 id="landing-title">{t('landing.title')}</h1>
          <p className="lead">{t('landing.subtitle')}</p>
          <p className="actions">
            <ButtonLink variant="primary" to="/register">
              {t('landing.getStarted')}
            </ButtonLink>
            <ButtonLink href="#sign-in-title">{t('landing.signIn')}</ButtonLink>
          </p>
        </section>
        <SignInForm />
        <section className="landing-steps" aria-labelledby="how-title">
          <h2 id="how-title">{t('landing.howTitle')}</h2>
          <ol className="steps">
            {STEPS.map((step, index) => (
              <Card as="li" key={step} className="step">
                <span className="step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <h3>{t(`landing.steps.${step}.title`)}</h3>
                <p>{t(`landing.steps.${step}.text`)}</p>
              </Card>
            ))}
          </ol>
        </section>
        <Card className="landing-price" aria-labelledby="price-title">
          <h2 id="price-title">{t('landing.priceTitle')}</h2>
          <p className="price" data-testid="weekly-price">
            {price ? t('landing.perWeek', { price }) : '\u00a0'}
          </p>
          <p className="muted">{t('landing.priceNote')}</p>
        </Card>
        <Card className="landing-facts" aria-labelledby="facts-title">
          <h2 id="facts-title">{t('landing.factsTitle')}</h2>
          <ul>
            <li>{t('landing.supportHours')}</li>
            <li>{t('landing.limitedSeats')}</li>
          </ul>
          <Link to="/faqs">{t('landing.allFaqs')}</Link>
        </Card>
      </main>
      <PublicFooter />
    </>
  );
}
