// The record's change history (RelatedTabs' timeline) for the custom screens, loaded when first shown.
import { lazyScreen } from '../lib/lazyScreen.ts';

export const StoricoTab = lazyScreen(() => import('./RelatedTabs.tsx').then((m) => ({ default: m.StoricoTab })));
