// The insurer's simulation (FastQuotationFlow's answer): one shape for the adapter that reads it and the screen that shows it.

export interface CoverageQuote {
  code: string;
  description: string;
  /** Euro with two decimals, as the insurer answers. */
  price: number;
  priceDelay: number;
  priceBlackbox: number;
  priceBlackboxDelay: number;
  packCode: string | null;
  packPrice: number | null;
  packDescription: string | null;
}

/** 'Quoted' = priced; 'NotAvailable' = the tariff does not apply ('Quotazione non disponibile'). */
export type QuotationStatus = 'Quoted' | 'NotAvailable';

export interface SimulationResponse {
  simulation: {
    commonData: { simulationNumber: string; quotationType: string; validityDate: string; simulationEndDate: string };
    quotation: {
      totalPrice: number | null;
      totalPriceDelay: number | null;
      quotationStatus: QuotationStatus;
      /** Why the tariff does not apply, when it does not. */
      reason?: string;
      /** The promotion asked for, and whether this quotation activated it (not all do). */
      convention?: string;
      promoApplied?: boolean;
      coverages: CoverageQuote[];
    };
  };
}
