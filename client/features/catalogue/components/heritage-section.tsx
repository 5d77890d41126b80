export function HeritageSection({ productName }: { productName: string }) {
  return (
    <section
      aria-labelledby="heritage-title"
      className="grid items-center gap-6 rounded-(--radius-cap) bg-surface p-6 sm:grid-cols-[auto_1fr] sm:p-8"
    >
      <div aria-hidden className="mx-auto flex size-28 items-center justify-center rounded-full border-8 border-brand bg-sale shadow-inner">
        <div className="size-12 rounded-full border-4 border-dashed border-brand/60" />
      </div>
      <div>
        <h2 id="heritage-title" className="text-2xl font-black tracking-tight">
          A heritage worth collecting
        </h2>
        <p className="mt-2 leading-relaxed text-muted-foreground">
          From dairy bottle caps to a global playground phenomenon, {productName} has always been about collecting, trading and sharing.
          Each piece in this shop is a small part of that story, made for the people who carry it forward.
        </p>
      </div>
    </section>
  );
}
