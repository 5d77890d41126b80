import { ExternalLink } from 'lucide-react';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '../../../components/ui/accordion';

interface ShopFaqProps {
  productName: string;
  tokenSymbol: string;
  /** Where to get the coin; the answer names it without a link until config has loaded. */
  brandUrl: string | null;
}

/** The shop's six FAQ items; one open at a time, collapsible. */
export function ShopFaq({ productName, tokenSymbol, brandUrl }: ShopFaqProps) {
  return (
    <section aria-labelledby="faq-title" data-testid="faq">
      <h2 id="faq-title" className="text-2xl font-black tracking-tight">
        Frequently Asked Questions
      </h2>
      <Accordion type="single" collapsible className="mt-4 rounded-(--radius-cap) border border-border bg-card px-4 sm:px-6">
        <AccordionItem value="heritage">
          <AccordionTrigger>What is the legendary {productName} heritage?</AccordionTrigger>
          <AccordionContent>
            Milk caps have been stacked, slammed and traded since the 1920s in Hawaii. In the 1990s caps from POG juice (passion fruit,
            orange and guava) turned the game into a worldwide playground legend. The {productName} Shop celebrates that heritage with
            collectible merchandise for today&apos;s community.
          </AccordionContent>
        </AccordionItem>
        <AccordionItem value="exclusivity">
          <AccordionTrigger>Why can I only pay with {productName}?</AccordionTrigger>
          <AccordionContent>
            This collection is made for the {productName} community. Accepting only the coin keeps the pieces exclusive to holders, gives
            the coin a real use, and rewards the people who keep the heritage alive.
          </AccordionContent>
        </AccordionItem>
        <AccordionItem value="what">
          <AccordionTrigger>What is the {productName} coin?</AccordionTrigger>
          <AccordionContent>
            {productName} ({tokenSymbol}) is a community coin built on several blockchain networks. This store accepts only the Base version
            of {productName}. Solana support is coming soon.
          </AccordionContent>
        </AccordionItem>
        <AccordionItem value="get">
          <AccordionTrigger>How do I get {productName}?</AccordionTrigger>
          <AccordionContent>
            {brandUrl ? (
              <>
                Visit the{' '}
                <a
                  href={brandUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 font-semibold text-brand underline underline-offset-4"
                >
                  official {productName} site
                  <ExternalLink aria-hidden className="size-3.5" />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>{' '}
                to learn where to get {productName}.
              </>
            ) : (
              <>
                Visit the official {productName} site to learn where to get {productName}.
              </>
            )}{' '}
            Make sure you get the Base version: it is the only one this store accepts.
          </AccordionContent>
        </AccordionItem>
        <AccordionItem value="use">
          <AccordionTrigger>How do I use {productName} in this shop?</AccordionTrigger>
          <AccordionContent>
            <ol className="list-decimal space-y-1 pl-5">
              <li>Connect your wallet.</li>
              <li>Browse the collection and add items to your cart.</li>
              <li>At checkout, confirm the {productName} payment in your wallet.</li>
              <li>After payment, complete your shipping information.</li>
            </ol>
            <p className="mt-2">Make sure your wallet is on the Base network before you pay.</p>
          </AccordionContent>
        </AccordionItem>
        <AccordionItem value="base">
          <AccordionTrigger>About the Base network</AccordionTrigger>
          <AccordionContent>
            Base is an Ethereum layer-2 network with low fees. This store accepts {productName} only on Base: payments sent on any other
            network can&apos;t be accepted. Solana support is coming soon.
          </AccordionContent>
        </AccordionItem>
      </Accordion>
    </section>
  );
}
