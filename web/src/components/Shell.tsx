// The root layout: the tab's title, the top nav, then the page, loaded lazily behind the overlay
// and the load boundary.
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ChatWidget } from './ChatWidget.js';
import { DocumentTitle } from './DocumentTitle.js';
import { LoadingOverlay } from './LoadingOverlay.js';
import { PageLoadBoundary } from './PageLoadBoundary.js';
import { TopNav } from './TopNav.js';
import { UpdateBanner } from './UpdateBanner.js';

export function Shell() {
  const location = useLocation();
  return (
    <>
      <DocumentTitle />
      <TopNav />
      <UpdateBanner />
      <PageLoadBoundary resetKey={location.pathname}>
        <Suspense fallback={<LoadingOverlay />}>
          <Outlet />
        </Suspense>
      </PageLoadBoundary>
      <ChatWidget />
    </>
  );
}
