import { Construction } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../../lib/use-document-title';

export type ComingSoonTopic = 'admin';

const TOPICS: Record<ComingSoonTopic, { title: string; text: string }> = {
  admin: { title: 'Admin', text: 'Product management arrives with the admin release.' },
};

/** PLACEHOLDER pages for routes whose features ship in later issues. Shows no data at all. */
export function ComingSoonPage({ topic }: { topic: ComingSoonTopic }) {
  const { title, text } = TOPICS[topic];
  useDocumentTitle(title);
  return (
    <div className="flex min-h-[calc(100dvh-4rem)] items-center justify-center bg-surface px-4 py-10">
      <section
        data-testid="coming-soon"
        data-topic={topic}
        aria-labelledby="coming-soon-title"
        className="grid w-full max-w-md justify-items-center gap-3 rounded-(--radius-cap) border border-border bg-card p-8 text-center shadow-sm"
      >
        <span className="rounded-full bg-sale px-3 py-1 text-xs font-extrabold tracking-widest text-sale-foreground uppercase">
          Coming soon
        </span>
        <Construction aria-hidden className="size-10 text-brand" />
        <h1 id="coming-soon-title" className="text-2xl font-black tracking-tight">
          {title}
        </h1>
        <p className="text-muted-foreground">{text}</p>
        <Link
          to="/"
          className="mt-2 inline-flex h-11 items-center rounded-full bg-brand px-5 font-semibold text-brand-foreground hover:bg-brand-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          Continue shopping
        </Link>
      </section>
    </div>
  );
}
