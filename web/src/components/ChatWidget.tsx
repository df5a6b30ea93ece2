// The live-chat widget: loaded only when VITE_CHAT_WIDGET_URL is set, and given
// the signed-in user's phone number and name before its script runs.
import { useEffect } from 'react';
import { useAuth } from '../hooks/useAuth.js';

const WIDGET_URL = import.meta.env.VITE_CHAT_WIDGET_URL as string | undefined;

interface ChatWindow {
  blockcatchChatUser?: { phoneNumber: string; name: string };
  /** What a loaded widget exposes; widgets differ, so only `open` is relied on. */
  chatWidget?: { open?(): void; setUser?(user: { phoneNumber: string; name: string }): void };
}
// globalThis rather than window: the landing page is also rendered at build time, outside a browser.
const chatWindow = globalThis as unknown as ChatWindow;

export function chatWidgetConfigured(): boolean {
  return Boolean(WIDGET_URL);
}

export function openChat(): void {
  chatWindow.chatWidget?.open?.();
}

export function ChatWidget() {
  const { state } = useAuth();
  const user =
    state.status === 'signed-in'
      ? { phoneNumber: state.user.phoneNumber, name: state.user.name }
      : null;
  const phoneNumber = user?.phoneNumber;
  const name = user?.name;

  useEffect(() => {
    if (!WIDGET_URL) return;
    if (phoneNumber && name) {
      chatWindow.blockcatchChatUser = { phoneNumber, name };
      chatWindow.chatWidget?.setUser?.({ phoneNumber, name });
    }
    if (document.getElementById('chat-widget-script')) return;
    const script = document.createElement('script');
    script.id = 'chat-widget-script';
    script.src = WIDGET_URL;
    script.async = true;
    if (phoneNumber) script.dataset.phoneNumber = phoneNumber;
    if (name) script.dataset.name = name;
    document.body.append(script);
  }, [phoneNumber, name]);

  return null;
}
