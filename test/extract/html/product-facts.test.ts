import { describe, expect, it } from 'vitest';
import { productFacts, productFactsMarkdown } from '../../../src/extract/html/product-facts.ts';

const ld = (json: string) =>
  `<html><head><script type="application/ld+json">${json}</script></head><body></body></html>`;

describe('productFacts', () => {
  it('reads a Product at the top level, in @graph, or typed as a list', () => {
    const product =
      '{"@type":["Product","Thing"],"name":"Kettle","description":"Boils a litre in two minutes.","offers":[{"@type":"Offer","price":39.5,"priceCurrency":"GBP","availability":"http://schema.org/OutOfStock"}]}';
    const facts = productFacts(ld(`{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},${product}]}`));
    expect(facts).toEqual({
      name: 'Kettle',
      description: 'Boils a litre in two minutes.',
      price: '39.5 GBP',
      availability: 'Out of stock',
      specs: [],
    });
    expect(productFacts(ld(product))?.name).toBe('Kettle');
  });

  it('is undefined without a Product, with broken JSON, or with neither description nor price', () => {
    expect(productFacts(ld('{"@type":"Article","headline":"x"}'))).toBeUndefined();
    expect(productFacts(ld('{"@type":"Product", broken'))).toBeUndefined();
    expect(productFacts(ld('{"@type":"Product","name":"Only a name"}'))).toBeUndefined();
    expect(productFacts('<p>no structured data</p>')).toBeUndefined();
  });

  it('adds only what the page text lacks, and escapes table pipes', () => {
    const facts = {
      description: 'Boils a litre in two minutes.',
      specs: [{ name: 'Volume', value: '1 l | 34 oz' }],
      price: '39.5 GBP',
    };
    expect(productFactsMarkdown(facts, 'It boils a litre in two minutes, quietly.')).toBe(
      'Price: 39.5 GBP\n\n| Specification | Value |\n| --- | --- |\n| Volume | 1 l \\| 34 oz |',
    );
    expect(productFactsMarkdown({ specs: [] }, 'anything')).toBe('');
  });
});
