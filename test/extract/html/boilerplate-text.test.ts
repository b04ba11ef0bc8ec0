import { describe, expect, it } from 'vitest';
import { isBoilerplateText, isDateline } from '../../../src/extract/html/boilerplate-text.ts';

describe('boilerplate text patterns', () => {
  it.each([
    'Advertisement',
    'Read more: Council budget passes',
    "DON'T MISS",
    'Related: How bridges are built',
    'By Jane Doe',
    'Photo: Gene J. Puskar',
    'Image copyright Reuters',
    'Credit...Anna Moneymaker/The New York Times',
    'China has warned it will act (Image: GETTY)',
    'Getty Images',
    'Reuters contributed to this report.',
    '(Reporting by A. Writer; Editing by B. Editor)',
    'Filed under: Politics',
    'Write to Al Root at al@example.com',
    'Nov. 20, 2019, 9:28 AM UTC',
    'Published November 20th, 2019 - 07:50 GMT',
    'Updated: Sat 8:31 PM, Feb 17, 2018',
  ])('flags %j', (text) => {
    expect(isBoilerplateText(text)).toBe(true);
  });

  it.each([
    'By the end of the decade, the river had moved two hundred metres east.',
    'In March 2019 the council closed the old bridge.',
    'More than 100 people attended the meeting on Tuesday.',
    '— The Senate (@Senate) October 9, 2018',
    'The photo shows the bridge at dawn, before the crowds arrived.',
    'Ingredients',
  ])('keeps %j', (text) => {
    expect(isBoilerplateText(text)).toBe(false);
  });

  it('needs two date signals for a dateline', () => {
    expect(isDateline('March 5, 2024')).toBe(true);
    expect(isDateline('2024')).toBe(false);
    expect(isDateline('Posted 3 hours ago')).toBe(true);
    expect(isDateline('The 2024 season opener')).toBe(false);
  });

  it('reads UI words followed by punctuation, and long punctuation runs in linear time', { timeout: 10_000 }, () => {
    expect(isBoilerplateText('Advertisement :: »')).toBe(true);
    // `[\s:.!…»›>|]+$` rescanned the run from every colon: over two minutes at this size.
    expect(isBoilerplateText(`${':'.repeat(400_000)}x`)).toBe(false);
  });
});
