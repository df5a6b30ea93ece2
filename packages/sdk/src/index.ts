// The public face of @blockcatch/sdk: what its users need, by name. Helpers the package uses
// only inside are not exported. Node-only pieces live in `./node`.
export {
  type AuthOptions,
  createAuth,
  REFERRAL_ATTRIBUTE,
  type Session,
  type SignInResult,
} from './auth/auth.js';
export { SANDBOX_CLIENT_ID, SANDBOX_USER_POOL_ID } from './auth/sandbox.js';
export {
  createLocalStorageSessionStore,
  createMemorySessionStore,
  SESSION_KEY_PREFIXES,
} from './auth/session-store.js';
export { filterAudience } from './core/audience.js';
export {
  cardDigits,
  extendExpiration,
  MAX_WEEKS,
  MIN_WEEKS,
  nextDunningAttempt,
  passesLuhn,
  paymentStanding,
  refundExpiration,
  refundedWeeks,
  WEEK_MS,
} from './core/billing.js';
export { csvLine } from './core/csv.js';
export {
  collectPhones,
  findPhoneColumn,
  type PhoneRowProblem,
} from './core/csv-phones.js';
export {
  endOfDay,
  formatDayShort,
  formatIsoDateTime,
  formatIsoDay,
  localTimeZone,
  offsetAt,
  startOfDay,
} from './core/days.js';
export {
  FAILED_STATES,
  PRODUCT_TIME_ZONE,
  PROVIDER_ERROR_MEANINGS,
  providerErrorMeaning,
  quietHoursRelease,
  RECIPIENT_STATES,
  REGION_TIME_ZONES,
  type RecipientState,
  regionTimeZone,
  WAITING_STATES,
} from './core/delivery.js';
export { ERROR_CODES, type GatewayErrorCode, isGatewayErrorCode } from './core/error-codes.js';
export {
  EXPORT_COLUMNS,
  EXPORT_CSV_HEADER,
  type ExportColumn,
  type ExportedRow,
  exportCsvLine,
  exportRow,
  regionOf,
} from './core/export-row.js';
export {
  PREVIEW_DAYS,
  previewFilters,
  type SeenOffer,
} from './core/filter-preview.js';
export { type InsightSuggestion, insightSuggestion } from './core/insight.js';
export {
  filterInvitees,
  mergeInvitees,
} from './core/invitees.js';
export {
  KEYWORDS,
  type KeywordIntent,
  type KeywordLanguage,
  parseKeyword,
} from './core/keywords.js';
export { summarizeLatency } from './core/latency.js';
export {
  creditExpiration,
  type LostHoursRules,
  type LostStretch,
  type LostTimeReason,
  lostHoursInWeek,
  weeksTouched,
} from './core/lost-hours.js';
export {
  compareForTaking,
  createOfferMatcher,
  everyDay,
  type OfferMatcher,
  SEARCH_AHEAD_MS,
  scheduleSearch,
  WON_BLOCKS_KEPT_MS,
} from './core/offers.js';
export {
  type OutcomeCount,
  summarizeOutcomes,
} from './core/outcomes.js';
export { type Page, paginate } from './core/paging.js';
export {
  invitationFirstName,
  NAME_PROBLEM_MESSAGES,
  type NameProblem,
  nameProblem,
} from './core/person-name.js';
export {
  formatPhone,
  normalizePhone,
} from './core/phone.js';
export {
  isReferralCode,
  normalizeReferralCode,
  REFERRAL_ALPHABET,
  REFERRAL_CODE_LENGTH,
} from './core/referral-code.js';
export {
  nextRouteForUser,
  type SignedInRoute,
} from './core/routing.js';
export {
  ALERT_CHANNELS,
  ALERT_KINDS,
  type AlertKind,
  type AlertSettings,
  alertSettingsResponseSchema,
  alertSettingsSchema,
  DEFAULT_ALERT_SETTINGS,
} from './core/schemas/alerts.js';
export {
  type ApprovalReason,
  type Approver,
  approvalDecisionSchema,
  approvalOutcomeSchema,
  approvalReasonFor,
  approvalSettingsSchema,
  approverChangeSchema,
  approverSchema,
  approversSchema,
  MAX_APPROVAL_NOTE,
  type PendingApproval,
  pendingApprovalsSchema,
} from './core/schemas/approvals.js';
export {
  AUDIT_ACTIONS,
  AUDIT_CSV_HEADER,
  AUDIT_EXPORT_MAX_ROWS,
  type AuditAction,
  type AuditEvent,
  type AuditQuery,
  auditCsvLine,
  auditExportSchema,
  auditListSchema,
  auditQuerySchema,
} from './core/schemas/audit.js';
export {
  type ConsentMethod,
  MARKETING_CONSENT_ATTRIBUTE,
  MARKETING_CONSENT_VERSION,
  type MarketingConsent,
  marketingConsentChangeSchema,
  marketingConsentResponseSchema,
  parseMarketingConsentAttribute,
} from './core/schemas/consent.js';
export {
  type ExportFormat,
  invitationsExportQuerySchema,
  usersExportQuerySchema,
} from './core/schemas/export.js';
export {
  type ApiToken,
  type AudienceFilters,
  adminRoleChangeSchema,
  adminRoleSchema,
  apiTokenSchema,
  apiTokensResponseSchema,
  arriveResponseSchema,
  type BillingOverview,
  type BillingResponse,
  type BillingSummary,
  type Block,
  billingOverviewSchema,
  billingQuerySchema,
  billingResponseSchema,
  billingSummarySchema,
  type CalendarFeedCreated,
  type CalendarQuery,
  type Channel,
  type Checkout,
  type CheckoutRequest,
  type CreatedApiToken,
  calendarFeedCreatedSchema,
  calendarFeedStateSchema,
  calendarQuerySchema,
  channelSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  createdApiTokenSchema,
  createInvitationRequestSchema,
  currentUserResponseSchema,
  DEFAULT_ROWS_PER_PAGE,
  type DriverCalendar,
  type DriverDashboard,
  type DriverFilters,
  type DriverInvitation,
  driverCalendarSchema,
  driverDashboardResponseSchema,
  driverFiltersSchema,
  driverInvitationsResponseSchema,
  driverSettingsResponseSchema,
  driverStatusRequestSchema,
  driverStatusResponseSchema,
  encryptedAnswerSchema,
  type FlexUser,
  filterPreviewResponseSchema,
  flexUserSchema,
  flexUsersResponseSchema,
  INSIGHT_MIN_DRIVERS,
  INSIGHT_WEEKS,
  type InsightFigure,
  type Invitation,
  type InvitationStatus,
  type InviteeFilters,
  invitationBacklogResponseSchema,
  invitationResponseSchema,
  invitationSchema,
  invitationsResponseSchema,
  isoDaySchema,
  type LostHoursCredit,
  MAX_BLOCK_HOURS,
  MAX_EMAIL_LENGTH,
  MAX_HOURS_PER_DAY,
  MAX_HOURS_PER_WEEK,
  MAX_NAME_LENGTH,
  MAX_PHONE_LENGTH,
  MAX_RECIPIENTS,
  type MergedInvitee,
  type MsgTemplate,
  mergedInviteeSchema,
  type NotSearchingReason,
  type Offer,
  type OfferItem,
  type OfferKind,
  type Outcomes,
  type OutcomeWindow,
  offersQuerySchema,
  offersResponseSchema,
  outboxResponseSchema,
  outcomesResponseSchema,
  type Payment,
  type PaymentStatus,
  type PriceResponse,
  type Product,
  paymentItemResponseSchema,
  paymentsResponseSchema,
  platformChallengeSchema,
  platformLinkResponseSchema,
  platformSignInRequestSchema,
  platformStateResponseSchema,
  platformVerifiedResponseSchema,
  platformVerifyRequestSchema,
  portalResponseSchema,
  priceResponseSchema,
  productSchema,
  type Referral,
  ROWS_PER_PAGE,
  referralSchema,
  referralsResponseSchema,
  refundRequestSchema,
  refundResponseSchema,
  resellerResponseSchema,
  type SavedDriverFilters,
  type ScheduleWindow,
  type SendJobReport,
  type SendJobSummary,
  type SendPreview,
  type SendPreviewRequest,
  type SendRecipientRow,
  type SendResult,
  type SignedInUser,
  type SkipReason,
  type SmsSendPayload,
  type SparkUser,
  type Subscription,
  savedSettingsResponseSchema,
  sendAtSchema,
  sendJobReportSchema,
  sendJobsResponseSchema,
  sendPreviewSchema,
  sendResultSchema,
  serviceAreasResponseSchema,
  signedInUserSchema,
  smsSendPayloadSchema,
  sparkUserSchema,
  sparkUsersResponseSchema,
  stationInsightResponseSchema,
  storedDriverFiltersSchema,
  subscriptionUpdateRequestSchema,
  TEMPLATE_APPROVAL_STATUSES,
  type TemplateApprovalStatus,
  type TestSendResult,
  type TriState,
  templatesResponseSchema,
  templatesSyncResponseSchema,
  testSendPayloadSchema,
  testSendResultSchema,
  triStateSchema,
  type UserRow,
  type UserStatus,
  WEEKDAYS,
  type Weekday,
  type WeeklySchedule,
  type WhatsappSendPayload,
  type WhatsappTemplate,
  whatsappSendPayloadSchema,
  whatsappTemplateSchema,
} from './core/schemas/index.js';
export {
  type LatencySummary,
  latencyResponseSchema,
  type OfferTimeline,
} from './core/schemas/latency.js';
export {
  type SendJobOutcome,
  sendResultsQuerySchema,
  sendResultsSchema,
  type WeekResult,
  weeklyResults,
  weekOf,
} from './core/schemas/send-results.js';
export {
  MAX_OPEN_SUPPORT_REQUESTS,
  MAX_SUPPORT_MESSAGE_LENGTH,
  MAX_SUPPORT_REPLY_LENGTH,
  type NewSupportRequest,
  newSupportRequestSchema,
  SUPPORT_STATUSES,
  SUPPORT_TOPICS,
  type SupportReply,
  type SupportRequest,
  type SupportStatus,
  type SupportTopic,
  supportInboxQuerySchema,
  supportReplySchema,
  supportRequestResponseSchema,
  supportRequestsResponseSchema,
} from './core/schemas/support.js';
export { type SearchableRow, searchRecipients } from './core/search.js';
export {
  createRecipientSearch,
  type RecipientSearch,
} from './core/search-index.js';
export {
  limitToSingleSegment,
  SMS_LIMITS,
  type SmsSegmentation,
  segmentSms,
} from './core/sms.js';
export {
  bindTemplate,
  pickLanguage,
  type TemplateRecipient,
  unboundVariables,
} from './core/template-variables.js';
export {
  findLinks,
  isLinkCode,
  LINK_CODE_ALPHABET,
  LINK_CODE_LENGTH,
  LINK_PATH,
  replaceLinks,
  shortLink,
  withSampleLinks,
} from './core/tracked-links.js';
export { withoutTrailingSlashes } from './core/urls.js';
export { isEmail } from './core/validation.js';
export {
  decryptResponse,
  encryptResponse,
  parseResponseKey,
} from './crypto/response-cipher.js';
export {
  AuthError,
  BlockCatchError,
  ConfigError,
  ForbiddenError,
  HttpError,
  NetworkError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  UnauthenticatedError,
} from './errors.js';
export {
  createGatewayClient,
  type GatewayClient,
} from './gateway/client.js';

export { sendFailureMessage } from './gateway/resources/messages.js';

export { readWholeReport } from './gateway/resources/sends.js';

export type { UsersExport } from './gateway/resources/users-export.js';

/** The one backoff (full jitter under a doubling cap) the client, the send worker and the catcher use. */
export { backoffDelay } from './internal/retry.js';
export {
  type BatchProgress,
  type BatchSendSummary,
  DEFAULT_BATCH_SIZE,
  sendInBatches,
} from './send/send-in-batches.js';
export { deriveSendKey } from './send/send-key.js';
