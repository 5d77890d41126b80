import { MessagesSquare } from 'lucide-react';

export function CommunityLink({ url, productName }: { url: string | null; productName: string }) {
  return (
    <section aria-labelledby="community-title" className="grid justify-items-center gap-3 text-center">
      <h2 id="community-title" className="text-2xl font-black tracking-tight">
        Join the {productName} community
      </h2>
      <p className="max-w-lg text-muted-foreground">Talk drops, trades and flash sales with other holders.</p>
      {url && (
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="community-link"
          className="inline-flex h-12 items-center gap-2 rounded-full bg-foreground px-7 font-semibold text-background hover:bg-foreground/85 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <MessagesSquare aria-hidden className="size-5" />
          Join our community chat
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      )}
    </section>
  );
}
