// The signed-in top nav: links, the language toggle and the user menu (its one item: Sign out).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useNavigate } from 'react-router';
import { useAuth } from '../hooks/useAuth.js';
import { LanguageToggle } from './LanguageToggle.js';
import { Wordmark } from './Logo.js';
import { Button } from './ui/Button.js';

const DRIVER_LINKS = [
  ['/flex/dashboard', 'nav.home'],
  ['/flex/calendar', 'nav.calendar'],
  ['/flex/invite', 'nav.invite'],
  ['/flex/settings', 'nav.settings'],
  ['/flex/billing', 'nav.billing'],
  ['/faqs', 'nav.faqs'],
] as const;

export function TopNav() {
  const { t } = useTranslation();
  const { state, signOut } = useAuth();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  if (state.status !== 'signed-in') {
    // Visitors get the brand and the language toggle: every page must be readable in Spanish.
    return (
      <header className="top-nav">
        <NavLink to="/" className="brand" aria-label="BlockCatch">
          <Wordmark />
        </NavLink>
        <LanguageToggle />
      </header>
    );
  }

  const onSignOut = async () => {
    setMenuOpen(false);
    setPanelOpen(false);
    await signOut();
    navigate('/');
  };
  // Staff come for the admin area: it leads their navigation.
  const links = (
    <>
      {state.user.isAdmin && (
        <NavLink to="/admin" className="nav-admin" onClick={() => setPanelOpen(false)}>
          {t('nav.admin')}
        </NavLink>
      )}
      {DRIVER_LINKS.map(([to, key]) => (
        <NavLink key={to} to={to} onClick={() => setPanelOpen(false)}>
          {t(key)}
        </NavLink>
      ))}
    </>
  );

  return (
    <header className="top-nav">
      <NavLink to="/flex/dashboard" className="brand" aria-label="BlockCatch">
        <Wordmark />
      </NavLink>
      <nav className="nav-links" aria-label="Main">
        {links}
      </nav>
      <LanguageToggle />
      <div className="user-menu">
        <button
          type="button"
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {state.user.name}
          <span className="visually-hidden"> {t('nav.userMenu')}</span>
        </button>
        {menuOpen && (
          <div role="menu">
            <Button role="menuitem" onClick={onSignOut}>
              {t('nav.signOut')}
            </Button>
          </div>
        )}
      </div>
      <button
        type="button"
        className="menu-toggle"
        aria-expanded={panelOpen}
        aria-controls="mobile-panel"
        onClick={() => setPanelOpen(!panelOpen)}
      >
        <span aria-hidden="true">{panelOpen ? '×' : '☰'}</span>
        <span className="visually-hidden">
          {panelOpen ? t('nav.closeMenu') : t('nav.openMenu')}
        </span>
      </button>
      {panelOpen && (
        <div id="mobile-panel" className="mobile-panel">
          <p className="mobile-name">{state.user.name}</p>
          <nav aria-label="Mobile">{links}</nav>
          <Button onClick={onSignOut}>{t('nav.signOut')}</Button>
        </div>
      )}
    </header>
  );
}
