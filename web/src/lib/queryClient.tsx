// The one TanStack Query client for server data. It lives in the lazy page chunks only, so the
// first load of / (the landing page) does not carry it: routes.tsx wraps each lazy page in
// <QueryProvider>. Data is fresh for 30 s, refetched when the tab regains focus, and invalidated
// by the mutation that changes it (see hooks/queries.ts).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 1 },
  },
});

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
