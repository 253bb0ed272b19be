// Step 2 'Quotazione Veloce': the request's data, then the person, address and contact forms of spec 002 §2.6, all from the definition.
import { useMemo } from 'react';
import { SchemaForm } from '../../renderer/SchemaForm.tsx';
import { useDefinitions } from '../../lib/definitions.ts';
import type { FormUi, JsonSchema, RecordData, ResourceDef } from '../../types.ts';
import { contattoUi, errorSchemas, personaUi, stepForms } from './forms.ts';
import { verificaRichiesta } from '../../../shared/rca/richiesta.ts';
import type { QuotazioneRcaController } from './useQuotazioneRca.ts';

const datiUi: FormUi = { plate: { 'ui:help': 'Lettere e cifre, senza spazi: es. AB123CD' } };
const indirizzoUi: FormUi = {};

export function StepDati({ def, ctl }: { def: ResourceDef; ctl: QuotazioneRcaController }) {
  const { definitions } = useDefinitions();
  const r = ctl.richiesta;
  const gender = r.fastFlowData.personData?.gender;
  const forms = useMemo(() => stepForms(def.schema, gender), [def.schema, gender]);
  const persona = useMemo(() => personaUi(gender), [gender]);
  // The rules a schema cannot say (past effect date, address type) show as the user types, with the server's errors.
  const live = useMemo(() => verificaRichiesta(r as unknown as Record<string, unknown>), [r]);
  const errors = useMemo(() => errorSchemas({ ...ctl.errors, ...live }), [ctl.errors, live]);
  const resources = definitions?.resources;
  const datiData = useMemo(() => Object.fromEntries(Object.entries(r.fastFlowData).filter(([k]) => k !== 'personData' && k !== 'convention')), [ctl.formKey]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="rca-step-dati">
      <section aria-labelledby="rca-dati-title" className="mb-4">
        <h2 id="rca-dati-title" className="h5">Dati del veicolo e della polizza</h2>
        <SchemaForm
          key={`dati-${ctl.formKey}`}
          id="rca-dati"
          schema={forms.dati}
          formUi={datiUi}
          initialData={datiData as RecordData}
          extraErrors={errors.dati}
          resources={resources}
          onChange={(data) => ctl.setDati(data)}
        />
      </section>
      <section aria-labelledby="rca-persona-title" className="mb-4">
        <h2 id="rca-persona-title" className="h5">Contraente</h2>
        <SchemaForm
          key={`persona-${ctl.formKey}`}
          id="rca-persona"
          schema={forms.persona}
          formUi={persona}
          initialData={r.fastFlowData.personData as RecordData}
          extraErrors={errors.persona}
          resources={resources}
          onChange={(data) => ctl.setPersona(data)}
        />
      </section>
      <section aria-labelledby="rca-indirizzo-title" className="mb-4">
        <h2 id="rca-indirizzo-title" className="h5">Indirizzo</h2>
        <SchemaForm
          key={`indirizzo-${ctl.formKey}-${gender === 'Juridic' ? 'g' : 'f'}`}
          id="rca-indirizzo"
          schema={forms.indirizzo}
          formUi={indirizzoUi}
          initialData={fitAddress(r.addresses[0] ?? {}, forms.indirizzo)}
          extraErrors={errors.indirizzo}
          resources={resources}
          onChange={(data) => ctl.setIndirizzo(data)}
        />
      </section>
      <section aria-labelledby="rca-contatto-title">
        <h2 id="rca-contatto-title" className="h5">Contatto</h2>
        <SchemaForm
          key={`contatto-${ctl.formKey}`}
          id="rca-contatto"
          schema={forms.contatto}
          formUi={contattoUi}
          initialData={(r.contacts[0] ?? { type: 'Email', isPrincipal: true }) as RecordData}
          extraErrors={errors.contatto}
          resources={resources}
          onChange={(data) => ctl.setContatto(data)}
        />
      </section>
    </div>
  );
}

/** After a switch of person kind the address type must be one the new kind allows: the first one. */
function fitAddress(address: Record<string, unknown>, schema: JsonSchema): RecordData {
  const allowed = ((schema.properties?.addressType?.oneOf ?? []) as Array<{ const: string }>).map((o) => o.const);
  return (allowed.includes(String(address.addressType)) ? address : { ...address, addressType: allowed[0] }) as RecordData;
}
