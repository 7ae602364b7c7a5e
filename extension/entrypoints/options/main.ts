// The options page: the Pinboard server's address, then the connection — through the app's
// Connect page (which hands over a new write token), or a token pasted here.
import { browser } from '../../lib/browser.ts';
import { ask, isFailure } from '../../lib/ask.ts';
import { fill, h } from '../../lib/dom.ts';
import type { Status } from '../../lib/messages.ts';
import { header } from '../../ui/header.ts';

const app = document.getElementById('app') as HTMLElement;
/** The app's page that creates a token for the extension and hands it over. */
const CONNECT_PATH = '/connect';

function message(text: string, error = false): HTMLElement {
  return h('p', { class: error ? 'error' : 'success', role: error ? 'alert' : 'status' }, text);
}

async function render(note: HTMLElement | null = null): Promise<void> {
  const status = (await ask({ type: 'status' })) as Status;
  const address = h('input', { id: 'server', type: 'url', value: status.server, placeholder: 'https://pins.example.com', required: true, autocomplete: 'url' });
  const serverForm = h(
    'form',
    {
      class: 'card',
      onsubmit: (event: Event) => {
        event.preventDefault();
        void saveServer(address.value);
      },
    },
    h('h2', {}, '1. Your Pinboard'),
    h('label', { for: 'server' }, 'Address'),
    h('div', { class: 'row' }, address, h('button', { type: 'submit', class: 'button' }, 'Save')),
  );
  const token = h('input', { id: 'token', type: 'password', placeholder: 'pb_…', autocomplete: 'off', spellcheck: 'false' });
  const connection = status.username
    ? h(
        'div',
        {},
        h('p', { class: 'connected' }, `Connected as ${status.username} on ${status.server}.`),
        h('button', { type: 'button', class: 'button button--secondary', onclick: () => void disconnect() }, 'Disconnect'),
      )
    : h(
        'div',
        {},
        h('p', {}, 'Open your Pinboard’s Connect page and press Connect: it makes a token for this browser and hands it to the extension.'),
        h('button', { type: 'button', class: 'button', disabled: !status.server, onclick: () => void browser.tabs.create({ url: `${status.server}${CONNECT_PATH}` }) }, 'Open the Connect page'),
        h(
          'form',
          {
            class: 'paste',
            onsubmit: (event: Event) => {
              event.preventDefault();
              void connectWith(status.server, token.value);
            },
          },
          h('label', { for: 'token' }, 'Or paste a token with write access (from Tokens in your Pinboard’s profile menu)'),
          h('div', { class: 'row' }, token, h('button', { type: 'submit', class: 'button button--secondary', disabled: !status.server }, 'Connect')),
        ),
      );
  fill(
    app,
    header(false),
    h('h1', {}, 'Pinboard extension'),
    note,
    serverForm,
    h('section', { class: 'card' }, h('h2', {}, '2. Your account'), connection),
    h(
      'section',
      { class: 'card about' },
      h('h2', {}, 'What the extension may do, and why'),
      h(
        'ul',
        {},
        h(
          'li',
          {},
          h('strong', {}, 'Read and change data on the websites you visit: '),
          'to put the Save button on pictures, list a page’s images, and fetch a picture with your cookies for its site, as the page showed it (so pictures behind a sign-in save too). It sends a page’s address and pictures only to your Pinboard, and only when you save, or to show the badge when you already saved from the page.',
        ),
        h('li', {}, h('strong', {}, 'Context menus: '), '“Save to Pinboard” on pictures.'),
        h('li', {}, h('strong', {}, 'Storage: '), 'your Pinboard’s address, the token, and the boards you saved to lately.'),
      ),
    ),
  );
}

async function saveServer(typed: string) {
  const answer = await ask({ type: 'set-server', server: typed });
  await render(isFailure(answer) ? message(answer.message, true) : message('Saved. Now connect your account.'));
}

async function connectWith(server: string, token: string) {
  const answer = await ask({ type: 'connect', server, token });
  await render(isFailure(answer) ? message(answer.message, true) : message(`Connected as ${answer.username}.`));
}

async function disconnect() {
  const answer = await ask({ type: 'disconnect' });
  await render(isFailure(answer) ? message(answer.message, true) : message('Disconnected. Revoke the token under Tokens in your Pinboard if you no longer need it.'));
}

void render();
