// The demo bundle's viewer: plain browser JavaScript (styles: bundle-viewer.css), inlined into the
// HTML file by bundle-html.ts (no build step, no framework, no network). It reads the JSON in the
// script element "bundle-data" and renders every piece of data with textContent, never as HTML.
/* global document, setInterval, clearInterval */
// Keys: ←/→ step through turns (across episodes), space starts and stops autoplay.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('bundle-data').textContent);
  var eps = data.episodes;
  var state = { ep: 0, turn: 0, playing: false, timer: null, delay: 1800, moved: false };

  function el(tag, attrs, kids) {
    var n = document.createElement(tag);
    if (attrs)
      for (var k in attrs) {
        if (k === 'class') n.className = attrs[k];
        else if (k === 'text') n.textContent = attrs[k];
        else if (k.indexOf('on') === 0) n.addEventListener(k.slice(2), attrs[k]);
        else n.setAttribute(k, attrs[k]);
      }
    (kids || []).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      n.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return n;
  }
  function json(x) {
    return JSON.stringify(x, null, 2);
  }
  function short(x) {
    var s = JSON.stringify(x);
    return s && s.length > 140 ? s.slice(0, 140) + '…' : String(s);
  }

  function eventNode(e) {
    switch (e.kind) {
      case 'customer_message':
        return el('div', { class: 'ev customer' }, [el('span', { class: 'who', text: 'Customer' }), e.text]);
      case 'agent_message':
        return el('div', { class: 'ev agent' }, [el('span', { class: 'who', text: 'Agent' }), e.text]);
      case 'tool_call':
        return el('div', { class: 'ev tool' + (e.error ? ' err' : ''), 'data-kind': 'tool_call' }, [
          el('div', { text: '→ ' + e.name + '(' + short(e.args) + ')' }),
          e.error
            ? el('div', { class: 'errtext', text: 'error: ' + e.error })
            : el('details', null, [
                el('summary', { text: 'result ' + short(e.result) }),
                el('pre', { text: json(e.result) }),
              ]),
        ]);
      case 'answer':
        return el('div', { class: 'ev agent' }, [
          el('span', { class: 'who', text: 'Answer' }),
          el('pre', { text: json(e.answer) }),
        ]);
      case 'world_change':
        return el('div', { class: 'ev end' }, ['World changed (hidden from the agent): ' + e.description]);
      case 'action_error':
        return el('div', { class: 'ev error' }, [
          el('span', { class: 'who', text: 'Unusable action' }),
          e.error,
          el('pre', { text: e.raw }),
        ]);
      case 'termination':
        return el('div', { class: 'ev end' }, ['Episode ended: ' + e.reason]);
      default:
        return el('div', { class: 'ev' }, [el('pre', { text: json(e) })]);
    }
  }

  function transcript(ep) {
    var box = el('div', { class: 'card', id: 'transcript' }, [el('h3', { text: 'Transcript' })]);
    var cur = null;
    ep.turns.slice(0, state.turn + 1).forEach(function (t) {
      var node = el(
        'section',
        { class: 'turn' + (t.turn === state.turn ? ' current' : ''), 'data-turn': String(t.turn) },
        [el('div', { class: 'label', text: t.turn === 0 ? 'Opening' : 'Turn ' + t.turn })].concat(
          t.events.map(eventNode),
        ),
      );
      if (t.turn === state.turn) cur = node;
      box.appendChild(node);
    });
    return { box: box, cur: cur };
  }

  function rewardCard(ep) {
    var b = ep.breakdown;
    var card = el('div', { class: 'card', id: 'reward' }, [el('h3', { text: 'Reward breakdown' })]);
    if (!b) {
      card.appendChild(el('p', { class: 'muted', text: 'No reward: the episode is ' + ep.status + '.' }));
      return card;
    }
    card.appendChild(
      el('table', null, [
        el('tr', null, [
          el('th', { text: 'reward' }),
          el('td', { 'data-testid': 'breakdown-total', text: ep.shown.reward + (b.isCorrect ? ' · pass' : ' · fail') }),
        ]),
        el('tr', null, [el('th', { text: 'r_task' }), el('td', { text: ep.shown.rTask + '  × w ' + b.weights.task })]),
        el('tr', null, [el('th', { text: 'r_eff' }), el('td', { text: ep.shown.rEff + '  × w ' + b.weights.eff })]),
        el('tr', null, [el('th', { text: 'r_hall' }), el('td', { text: ep.shown.rHall + '  × w ' + b.weights.hall })]),
        b.hardFail ? el('tr', null, [el('th', { text: 'hard fail' }), el('td', { text: b.hardFail })]) : null,
        el('tr', null, [
          el('th', { text: 'turns' }),
          el('td', { text: b.turns + ' (T_ref ' + b.tRef + ', T_max ' + b.tMax + ')' }),
        ]),
      ]),
    );
    var metrics = Object.keys(b.task.metrics || {});
    if (metrics.length)
      card.appendChild(
        el('p', {
          class: 'muted',
          text:
            'metrics: ' +
            metrics
              .map(function (k) {
                return k + ' ' + Number(b.task.metrics[k].toFixed(3));
              })
              .join(' · '),
        }),
      );
    ['task', 'eff', 'hall'].forEach(function (part) {
      var lines = b.evidence[part] || [];
      if (!lines.length) return;
      card.appendChild(el('div', { class: 'muted', text: 'evidence · ' + part }));
      card.appendChild(
        el(
          'ul',
          { class: 'evidence' },
          lines.map(function (l) {
            return el('li', {
              class: l.ok ? '' : 'bad',
              text: (l.ok ? '✓ ' : '✗ ') + l.text + (l.turns.length ? '  (turn ' + l.turns.join(', ') + ')' : ''),
            });
          }),
        ),
      );
    });
    if (!data.withGoal)
      card.appendChild(
        el('p', {
          class: 'muted',
          text: 'The task’s evidence lines name the hidden goal, so they are left out of this bundle.',
        }),
      );
    return card;
  }

  function render() {
    var ep = eps[state.ep];
    var root = document.getElementById('app');
    root.textContent = '';
    if (!ep) {
      root.appendChild(el('p', { text: 'This bundle holds no episodes.' }));
      return;
    }
    var last = ep.turns.length - 1;
    var pass = ep.isCorrect === true;
    root.appendChild(
      el('div', { class: 'epbar' }, [
        el('h2', { text: ep.envId + ' · d=' + ep.d }),
        el('span', {
          class: 'facts',
          text: [
            ep.seed !== null ? 'seed ' + ep.seed : null,
            ep.player,
            ep.runLabel ? 'run ' + ep.runLabel : null,
            ep.terminationReason ? 'ended: ' + ep.terminationReason : ep.status,
            ep.turnsTaken + ' turn(s)',
          ]
            .filter(Boolean)
            .join(' · '),
        }),
        el('span', {
          class: 'reward ' + (pass ? 'pass' : 'fail'),
          'data-testid': 'bundle-reward',
          text: 'reward ' + ep.shown.reward,
        }),
        ep.isCorrect === null
          ? null
          : el('span', { class: 'badge ' + (pass ? 'pass' : 'fail'), text: pass ? 'pass' : 'fail' }),
        el('span', { class: 'muted', 'data-testid': 'bundle-episode-id', text: ep.id }),
      ]),
    );
    var select =
      eps.length > 1
        ? el(
            'select',
            {
              'aria-label': 'episode',
              onchange: function (ev) {
                go(Number(ev.target.value), 0);
              },
            },
            eps.map(function (e, i) {
              var o = el('option', {
                value: String(i),
                text: i + 1 + '. ' + e.envId + ' d=' + e.d + ' ' + e.shown.reward,
              });
              if (i === state.ep) o.selected = true;
              return o;
            }),
          )
        : null;
    var slider = el('input', {
      type: 'range',
      min: '0',
      max: String(last),
      value: String(state.turn),
      'aria-label': 'turn',
      oninput: function (ev) {
        go(state.ep, Number(ev.target.value));
      },
    });
    root.appendChild(
      el('div', { class: 'controls' }, [
        select,
        el(
          'button',
          {
            type: 'button',
            'data-testid': 'prev-turn',
            onclick: function () {
              step(-1);
            },
          },
          ['← back'],
        ),
        el('span', {
          class: 'pos',
          'data-testid': 'turn-position',
          text:
            state.turn === 0
              ? 'Opening · ' + last + ' turn' + (last === 1 ? '' : 's')
              : 'Turn ' + state.turn + ' of ' + last,
        }),
        el(
          'button',
          {
            type: 'button',
            'data-testid': 'next-turn',
            onclick: function () {
              step(1);
            },
          },
          ['next →'],
        ),
        el('button', { type: 'button', class: state.playing ? 'on' : '', 'data-testid': 'autoplay', onclick: toggle }, [
          state.playing ? '❚❚ pause' : '▶ autoplay',
        ]),
        slider,
        el('span', {
          class: 'hint',
          text:
            '←/→ step · space autoplay' + (eps.length > 1 ? ' · episode ' + (state.ep + 1) + ' of ' + eps.length : ''),
        }),
        // one column on a narrow screen: the world and the reward sit below the transcript
        el('span', { class: 'jumps' }, [
          el('a', { href: '#world', text: 'world ↓' }),
          el('a', { href: '#reward', text: 'reward ↓' }),
        ]),
      ]),
    );
    var t = transcript(ep);
    var world = ep.turns[state.turn].world;
    var side = el('div', null, [
      rewardCard(ep),
      el('div', { class: 'card', id: 'world' }, [
        el('h3', { text: 'World after ' + (state.turn === 0 ? 'the opening' : 'turn ' + state.turn) }),
        el('p', { class: 'muted', text: ep.worldNote }),
        el('pre', { text: world === null ? '(not available)' : json(world) }),
      ]),
      ep.hiddenGoal
        ? el('div', { class: 'card', id: 'goal' }, [
            el('h3', { text: 'Hidden goal' }),
            el(
              'ul',
              null,
              ep.hiddenGoal.summary.map(function (s) {
                return el('li', { text: s });
              }),
            ),
            el('details', null, [el('summary', { text: 'data' }), el('pre', { text: json(ep.hiddenGoal.data) })]),
          ])
        : null,
    ]);
    root.appendChild(el('div', { class: 'grid' }, [t.box, side]));
    if (t.cur && state.moved) t.cur.scrollIntoView({ block: 'nearest' });
  }

  function go(epIndex, turn) {
    state.ep = Math.max(0, Math.min(epIndex, eps.length - 1));
    var last = eps[state.ep] ? eps[state.ep].turns.length - 1 : 0;
    state.turn = Math.max(0, Math.min(turn, last));
    state.moved = true; // from now on the selected turn is scrolled into view
    render();
  }
  // Steps run on into the next episode (and back into the previous one's last turn).
  function step(dir) {
    var ep = eps[state.ep];
    if (!ep) return false;
    var next = state.turn + dir;
    if (next > ep.turns.length - 1) {
      if (state.ep === eps.length - 1) return false;
      go(state.ep + 1, 0);
    } else if (next < 0) {
      if (state.ep === 0) return false;
      go(state.ep - 1, eps[state.ep - 1].turns.length - 1);
    } else go(state.ep, next);
    return true;
  }
  function toggle() {
    state.playing = !state.playing;
    clearInterval(state.timer);
    if (state.playing)
      state.timer = setInterval(function () {
        if (!step(1)) toggle();
      }, state.delay);
    render();
  }
  document.addEventListener('keydown', function (ev) {
    // a focused control keeps its own keys (space presses a button, arrows move a select or the slider)
    var tag = ev.target && ev.target.tagName;
    if (tag === 'BUTTON' || tag === 'SELECT' || tag === 'INPUT') return;
    if (ev.key === 'ArrowRight') {
      ev.preventDefault();
      step(1);
    } else if (ev.key === 'ArrowLeft') {
      ev.preventDefault();
      step(-1);
    } else if (ev.key === ' ') {
      ev.preventDefault();
      toggle();
    }
  });
  var header = document.getElementById('bundle-title');
  header.textContent = data.title;
  document.getElementById('bundle-meta').textContent = 'made ' + data.createdAt.slice(0, 16).replace('T', ' ') + ' UTC';
  var badge = document.getElementById('bundle-goal');
  badge.textContent = data.withGoal ? 'hidden goal included' : 'hidden goal not included';
  badge.className = 'badge ' + (data.withGoal ? 'goal' : 'nogoal');
  render();
})();
