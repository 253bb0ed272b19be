// Page title and icon: set by each screen, shown by the layout's page header and in the browser tab.
import { createContext, useContext, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { APP_NAME } from '../messages.ts';

export interface PageMeta {
  title?: string;
  icon?: string;
}

const SetMetaContext = createContext<(meta: PageMeta) => void>(() => undefined);
const MetaContext = createContext<PageMeta>({});

export function PageMetaProvider({ children }: { children: ReactNode }) {
  const [meta, setMeta] = useState<PageMeta>({});
  return (
    <SetMetaContext.Provider value={setMeta}>
      <MetaContext.Provider value={meta}>{children}</MetaContext.Provider>
    </SetMetaContext.Provider>
  );
}

/** Default title is the product's own name (spec 000 §1). */
export function usePageMeta(meta: PageMeta): void {
  const set = useContext(SetMetaContext);
  useEffect(() => {
    set(meta);
    document.title = meta.title ? `${meta.title} - ${APP_NAME}` : APP_NAME;
    // Only title and icon are shown: a caller's new object literal on every render must not re-run this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [set, meta.title, meta.icon]);
}

export function useCurrentPageMeta(): PageMeta {
  return useContext(MetaContext);
}
