export function ShopHero({ productName, currencyLabel }: { productName: string; currencyLabel: string }) {
  return (
    <section className="relative overflow-hidden bg-brand text-brand-foreground" aria-labelledby="shop-title">
      {/* Decorative caps */}
      <div aria-hidden className="pointer-events-none absolute -top-16 -right-16 size-56 rounded-full border-[18px] border-white/10" />
      <div aria-hidden className="pointer-events-none absolute -bottom-20 -left-10 size-44 rounded-full border-[14px] border-sale/30" />
      {/* A small stack of caps on wider screens */}
      <div aria-hidden className="pointer-events-none absolute top-1/2 right-[8%] hidden -translate-y-1/2 md:block">
        <div className="relative size-48">
          <div className="absolute top-0 left-10 size-32 rounded-full border-[10px] border-white bg-sale shadow-xl" />
          <div className="absolute top-14 left-0 size-32 rounded-full border-[10px] border-sale bg-white shadow-xl" />
          <div className="absolute top-20 left-20 size-28 rounded-full border-[10px] border-white/80 bg-brand-hover shadow-xl">
            <div className="m-auto mt-5 size-12 rounded-full border-4 border-dashed border-sale" />
          </div>
        </div>
      </div>
      <div className="relative mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
        <p className="text-sm font-bold tracking-[0.2em] text-sale uppercase">Curated Selection</p>
        <h1 id="shop-title" className="mt-2 text-4xl font-black tracking-tight sm:text-5xl">
          {productName} Shop
        </h1>
        <p className="mt-3 max-w-xl text-base text-white/90 sm:text-lg">
          Heritage merchandise for the {productName} community, priced and paid in {currencyLabel} on Base.
        </p>
      </div>
    </section>
  );
}
