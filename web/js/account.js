// The account page (#/account): log in or register (optional: a guest plays without either), or
// log out. The session token lives in localStorage (api.js); seat tokens are kept across changes.
import { h, clear } from './ui.js';
import { t } from './i18n.js';
import { login, register, logout } from './api.js';
import { serverMessage } from './errors.js';
import { playerLink } from './player.js';

export class AccountView {
  /** onChange(player) is called after a log in, registration or log out. */
  constructor(root, { player, onChange, returnTo } = {}) {
    this.root = root;
    this.player = player || null;
    this.onChange = onChange || (() => {});
    this.returnTo = returnTo || '#/';
    this.message = null;
    this.build();
  }

  relabel() {
    this.build();
  }

  /** A message kept as a function, so that it follows the language toggle. */
  say(text, kind = 'error') {
    this.message = { text: typeof text === 'function' ? text : () => text, kind };
    this.renderMessage();
  }

  renderMessage() {
    clear(this.messageEl);
    if (this.message) this.messageEl.append(h('div', { class: `notice ${this.message.kind}`, id: 'account-message' }, this.message.text()));
  }

  async submit(kind, form) {
    const name = form.querySelector('[name=name]').value.trim();
    const password = form.querySelector('[name=password]').value;
    if (kind === 'register' && password !== form.querySelector('[name=password2]').value) {
      this.say(() => t('account.mismatch'));
      return;
    }
    const btn = form.querySelector('button[type=submit]');
    btn.disabled = true;
    try {
      const player = kind === 'login' ? await login(name, password) : await register(name, password);
      this.player = player;
      this.onChange(player);
      location.hash = this.returnTo;
    } catch (e) {
      this.say(() => t('error', { msg: serverMessage(e) }));
      btn.disabled = false;
    }
  }

  async doLogout() {
    const player = await logout();
    this.player = player;
    this.onChange(player);
    this.build();
    this.say(() => t('account.loggedOut', { name: player?.name || '' }), 'ok');
  }

  build() {
    this.messageEl = h('div', { id: 'account-messages' });
    const p = this.player;
    const parts = [this.messageEl];
    if (p && !p.guest) {
      parts.push(h('div', { class: 'card' },
        h('h2', {}, t('account.title')),
        h('p', {}, t('account.registeredHint', { name: p.name }), ' ', playerLink(p.name, { id: 'account-page-link' })),
        h('div', { class: 'buttons' }, h('button', { id: 'account-logout', onclick: () => this.doLogout() }, t('account.logout')))));
    } else {
      if (p) parts.push(h('div', { class: 'notice', id: 'guest-hint' }, t('account.guestHint', { name: p.name })));
      const field = (label, attrs, hint) => h('label', { class: 'field' }, label, h('input', attrs), hint ? h('span', { class: 'muted small' }, hint) : null);
      const loginForm = h('form', { class: 'card account-form', id: 'login-form' },
        h('h2', {}, t('account.login')),
        field(t('account.name'), { name: 'name', type: 'text', autocomplete: 'username', required: true, maxlength: 64 }),
        field(t('account.password'), { name: 'password', type: 'password', autocomplete: 'current-password', required: true }),
        h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary', id: 'login-submit' }, t('account.login'))));
      loginForm.addEventListener('submit', (e) => { e.preventDefault(); this.submit('login', loginForm); });
      const registerForm = h('form', { class: 'card account-form', id: 'register-form' },
        h('h2', {}, t('account.register')),
        field(t('account.name'), { name: 'name', type: 'text', autocomplete: 'username', required: true, minlength: 2, maxlength: 48 }, t('account.nameRule')),
        field(t('account.password'), { name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8 }, t('account.passwordRule')),
        field(t('account.password2'), { name: 'password2', type: 'password', autocomplete: 'new-password', required: true, minlength: 8 }),
        h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary', id: 'register-submit' }, t('account.register'))));
      registerForm.addEventListener('submit', (e) => { e.preventDefault(); this.submit('register', registerForm); });
      parts.push(h('div', { class: 'account-forms' }, loginForm, registerForm));
    }
    clear(this.root).append(h('div', { class: 'account-page' }, parts));
    this.renderMessage();
  }
}
