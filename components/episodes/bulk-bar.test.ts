// The list bar says in words how many trainer episodes still wait for their events
// (server/episodes/materialise.ts, a budget per read in server/inspector/pg-search.ts).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BulkBar } from './BulkBar';

const bar = (eventsPending: number) =>
  renderToStaticMarkup(
    createElement(BulkBar, {
      selected: [],
      total: 1200,
      capped: false,
      eventsPending,
      listParams: '',
      onDelete: () => {},
      onClear: () => {},
      deleting: false,
    }),
  );

describe('the list bar', () => {
  it('says how many trainer episodes are still storing their events, as text', () => {
    const html = bar(1412);
    expect(html).toContain('data-testid="events-pending"');
    expect(html).toContain(
      '1,412 trainer episodes are still storing their events: search and tool-call counts skip them until then',
    );
    expect(bar(1)).toContain('1 trainer episode is still storing its events: search and tool-call counts skip it');
    expect(html).toContain('1,200 episodes match');
  });

  it('says nothing of it when none waits', () => {
    expect(bar(0)).not.toContain('events-pending');
    expect(bar(0)).not.toContain('storing');
  });
});
