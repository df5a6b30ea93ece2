// Every migration in the order it applies; an applied migration is never edited, only followed.
import core from './001_core.js';
import identity from './002_identity.js';
import messaging from './003_messaging.js';
import tableVersions from './004_table_versions.js';
import templatesPerLanguage from './005_templates_per_language.js';
import driver from './006_driver.js';
import payments from './007_payments.js';
import security from './008_security.js';
import tableVersionsOnChange from './009_table_versions_on_change.js';
import identityVersion from './010_identity_version.js';
import driverAttention from './011_driver_attention.js';
import delivery from './012_delivery.js';
import driverAlerts from './013_driver_alerts.js';
import sendJobOrigin from './014_send_job_origin.js';
import sendJobContent from './015_send_job_content.js';
import apiTokens from './016_api_tokens.js';
import subscriptions from './017_subscriptions.js';
import messageLanes from './018_message_lanes.js';
import messageExpiry from './019_message_expiry.js';
import senderOptOuts from './020_sender_opt_outs.js';
import pausedSenders from './021_paused_senders.js';
import marketingConsent from './022_marketing_consent.js';
import templateApproval from './023_template_approval.js';
import driverVerification from './030_driver_verification.js';
import calendarFeeds from './031_calendar_feeds.js';
import offersBySeen from './032_offers_by_seen.js';
import lostHours from './033_lost_hours.js';
import stationInsightRollup from './036_station_insight_rollup.js';
import stationInsightDriverTotals from './037_station_insight_driver_totals.js';
import auditLog from './040_audit_log.js';
import sendApprovals from './041_send_approvals.js';
import sendResults from './042_send_results.js';
import sendLinks from './043_send_links.js';
import sendResultsLinksFinal from './044_send_results_links_final.js';
import sendLinksCounted from './045_send_links_counted.js';
import supportRequests from './060_support_requests.js';
import usersLapsing from './061_users_lapsing.js';
import sendRecipientsUniqueByLock from './062_send_recipients_unique_by_lock.js';

export const migrations: readonly { id: string; sql: string }[] = [
  { id: '001_core', sql: core },
  { id: '002_identity', sql: identity },
  { id: '003_messaging', sql: messaging },
  { id: '004_table_versions', sql: tableVersions },
  { id: '005_templates_per_language', sql: templatesPerLanguage },
  { id: '006_driver', sql: driver },
  { id: '007_payments', sql: payments },
  { id: '008_security', sql: security },
  { id: '009_table_versions_on_change', sql: tableVersionsOnChange },
  { id: '010_identity_version', sql: identityVersion },
  { id: '011_driver_attention', sql: driverAttention },
  { id: '012_delivery', sql: delivery },
  { id: '013_driver_alerts', sql: driverAlerts },
  { id: '014_send_job_origin', sql: sendJobOrigin },
  { id: '015_send_job_content', sql: sendJobContent },
  { id: '016_api_tokens', sql: apiTokens },
  { id: '017_subscriptions', sql: subscriptions },
  { id: '018_message_lanes', sql: messageLanes },
  { id: '019_message_expiry', sql: messageExpiry },
  { id: '020_sender_opt_outs', sql: senderOptOuts },
  { id: '021_paused_senders', sql: pausedSenders },
  { id: '022_marketing_consent', sql: marketingConsent },
  { id: '023_template_approval', sql: templateApproval },
  { id: '030_driver_verification', sql: driverVerification },
  { id: '031_calendar_feeds', sql: calendarFeeds },
  { id: '032_offers_by_seen', sql: offersBySeen },
  { id: '033_lost_hours', sql: lostHours },
  { id: '036_station_insight_rollup', sql: stationInsightRollup },
  { id: '037_station_insight_driver_totals', sql: stationInsightDriverTotals },
  { id: '040_audit_log', sql: auditLog },
  { id: '041_send_approvals', sql: sendApprovals },
  { id: '042_send_results', sql: sendResults },
  { id: '043_send_links', sql: sendLinks },
  { id: '044_send_results_links_final', sql: sendResultsLinksFinal },
  { id: '045_send_links_counted', sql: sendLinksCounted },
  { id: '060_support_requests', sql: supportRequests },
  { id: '061_users_lapsing', sql: usersLapsing },
  { id: '062_send_recipients_unique_by_lock', sql: sendRecipientsUniqueByLock },
];
