// Generic add/edit screen for any resource: title, action bar, sections from form.ui.json, guards and notices.
import { Suspense, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice, Spinner } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import type { RecordData, ResourceDef } from '../types.ts';
import { LeaveGuard } from './FormParts.tsx';
import { ResourceFormBody } from './ResourceFormBody.tsx';
import { resourceFormSchemas, useResourceForm } from './useResourceForm.ts';
import { WithFormValidators } from './WithFormValidators.tsx';
import { usePages } from './pages.tsx';
import { useRelatedTabs } from './relatedTabs.ts';
import { lazyScreen as lazy } from '../lib/lazyScreen.ts';

// The related rows' panes bring the list grid: loaded when a tab opens, not with the form.
const RelatedTabPane = lazy(() => import('./RelatedTabs.tsx'));

interface TabConfig {
  title: string;
  page?: string;
  requiresSaved?: boolean;
  /** Not shown at all until the record is saved (requiresSaved only disables it). */
  hiddenUntilSaved?: boolean;
}

/** A named page from the custom pages registry, or an honest notice while it does not exist yet. */
function NamedPage({ name, def, id, record }: { name: string; def: ResourceDef; id?: string; record?: RecordData }) {
  const Page = usePages()(name);
  if (!Page) {
    return (
      <Notice variant="secondary" role="status">
        {`La schermata «${name}» non è ancora disponibile.`}
      </Notice>
    );
  }
  return (
    <Suspense fallback={<Spinner label={msg.loading} />}>
      <Page def={def} id={id} record={record} />
    </Suspense>
  );
}

/** ?tab= opens a tab by its page name or title (a desk's row opens the supplier's Prodotti tab); else the first. */
function openTab(tabs: TabConfig[], wanted: string | null, adding: boolean): string {
  if (!wanted) return '0';
  const index = tabs.findIndex((t) => t.page === wanted || t.title.toLowerCase() === wanted.toLowerCase());
  return index < 0 || (adding && (tabs[index]!.requiresSaved || tabs[index]!.hiddenUntilSaved)) ? '0' : String(index);
}

export default function ResourceFormPage({ def, id }: { def: ResourceDef; id?: string }) {
  const page = typeof def.form['ui:page'] === 'string' ? (def.form['ui:page'] as string) : undefined;
  if (page) return <WholePage name={page} def={def} id={id} />;
  return <GenericFormPage def={def} id={id} />;
}

function WholePage({ name, def, id }: { name: string; def: ResourceDef; id?: string }) {
  const customPage = usePages();
  // A registered page sets its own title (its effect would otherwise race with this one).
  if (customPage(name)) return <NamedPage name={name} def={def} id={id} />;
  return <MissingPage name={name} def={def} id={id} />;
}

function MissingPage({ name, def, id }: { name: string; def: ResourceDef; id?: string }) {
  usePageMeta({ title: def.resource.title, icon: def.resource.icon });
  return <NamedPage name={name} def={def} id={id} />;
}

function GenericFormPage({ def, id }: { def: ResourceDef; id?: string }) {
  const schemas = useMemo(() => resourceFormSchemas(def), [def]);
  return (
    <WithFormValidators schemas={schemas}>
      <GenericFormPageBody def={def} id={id} />
    </WithFormValidators>
  );
}

function GenericFormPageBody({ def, id }: { def: ResourceDef; id?: string }) {
  const { resource } = def;
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const ctl = useResourceForm(def, id);
  const related = useRelatedTabs(def);
  usePageMeta({ title: ctl.title, icon: resource.icon });
  const formId = `form-${def.name}`;
  const backToList = () => navigate(resource.routes?.list?.path ?? '/');

  if (ctl.loadError) {
    return (
      <Notice variant="danger" role="alert">
        {ctl.loadError}
      </Notice>
    );
  }
  if (ctl.loading) {
    return <Spinner label={msg.loading} />;
  }
  const body = <ResourceFormBody def={def} id={id} formId={formId} ctl={ctl} onCancel={backToList} />;
  const declared = def.form['ui:tabs'] as TabConfig[] | undefined;
  // resource.json "related": tabs of the saved record's related rows after the form's own (or after the form alone).
  const relatedTabs = ctl.mode === 'new' || !ctl.record?.id ? [] : related;
  const own: TabConfig[] = declared?.length ? declared : relatedTabs.length ? [{ title: `Dati ${resource.singular ?? resource.title}` }] : [];
  const tabs: TabConfig[] = [...own, ...relatedTabs.map(({ tab }) => ({ title: tab.title }))];
  return (
    <>
      {tabs.length ? (
        // Panes stay mounted, so switching tab never loses what was typed; related rows load when their tab opens.
        <Tabs defaultActiveKey={openTab(tabs, query.get('tab'), ctl.mode === 'new')} id={`${formId}-tabs`} className="mb-3">
          {own.map((tab, i) =>
            tab.hiddenUntilSaved && ctl.mode === 'new' ? null : (
              <Tab key={tab.title} eventKey={String(i)} title={tab.title} disabled={Boolean(tab.requiresSaved && ctl.mode === 'new')}>
                {tab.page ? <NamedPage name={tab.page} def={def} id={id} record={ctl.record} /> : i === own.findIndex((t) => !t.page) ? body : null}
              </Tab>
            ),
          )}
          {relatedTabs.map(({ tab, target }, i) => (
            <Tab key={`related-${tab.title}`} eventKey={String(own.length + i)} title={tab.title} mountOnEnter>
              <Suspense fallback={<Spinner label={msg.loading} />}>
                <RelatedTabPane tab={tab} target={target} def={def} record={ctl.record!} onRecord={ctl.showRecord} />
              </Suspense>
            </Tab>
          ))}
        </Tabs>
      ) : (
        body
      )}
      <LeaveGuard dirtyRef={ctl.dirtyRef} />
    </>
  );
}
