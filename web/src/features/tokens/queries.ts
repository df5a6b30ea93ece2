// Tokens for machines.
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const tokenQueries = {
  /** The admin's own tokens, or everyone's for the owner. */
  apiTokens: () =>
    queryOptions({ queryKey: ['admin', 'apiTokens'], queryFn: () => gateway.apiTokens.list() }),
};
