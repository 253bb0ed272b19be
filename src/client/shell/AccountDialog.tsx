// Edit Account: the user's own name and password (PUT /api/account), two-step verification (on, off) and
// 'Sessioni attive' (end one, end the others); server errors under the fields.
import { useCallback, useEffect, useState } from "react";
import type { FormEvent } from "react";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Modal from "react-bootstrap/Modal";
import Tab from "react-bootstrap/Tab";
import Tabs from "react-bootstrap/Tabs";
import { api, isApiError, type OwnSession } from "../api/dataProvider.ts";
import MfaEnrolment, { fieldError } from "./MfaEnrolment.tsx";
import { Field } from "./Field.tsx";
import { getSessionData, updateUser } from "../api/session.ts";
import { useNotify } from "../lib/notify.tsx";
import { msg } from "../messages.ts";

type Errors = Partial<
  Record<"name" | "password_attuale" | "password" | "conferma", string>
>;

export default function AccountDialog({
  show,
  onClose,
}: {
  show: boolean;
  onClose: () => void;
}) {
  const notify = useNotify();
  const [name, setName] = useState("");
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [tab, setTab] = useState("account");

  useEffect(() => {
    if (!show) return;
    setTab("account");
    setName(getSessionData()?.user.name ?? "");
    setCurrent("");
    setPassword("");
    setConfirm("");
    setErrors({});
  }, [show]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password && password !== confirm) {
      setErrors({ conferma: "Le due password non coincidono" });
      return;
    }
    const body: {
      name?: string;
      password_attuale?: string;
      password?: string;
    } = {};
    if (name.trim() && name.trim() !== getSessionData()?.user.name)
      body.name = name.trim();
    if (password) {
      body.password_attuale = current;
      body.password = password;
    }
    if (!Object.keys(body).length) {
      onClose();
      return;
    }
    setBusy(true);
    try {
      const result = await api.updateAccount(body);
      if (result.data?.user) updateUser(result.data.user);
      notify("success", result.message || "Account aggiornato");
      onClose();
    } catch (err) {
      if (isApiError(err, "VALIDATION")) {
        setErrors(
          Object.fromEntries(
            Object.entries(err.errors).map(([k, v]) => [k, v[0]]),
          ) as Errors,
        );
      } else {
        notify("danger", err instanceof Error ? err.message : msg.genericError);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      show={show}
      onHide={onClose}
      aria-labelledby="account-title"
      style={{ ["--bs-modal-width" as string]: "590px" }}
    >
      <Modal.Header closeButton closeLabel="Chiudi">
        <Modal.Title id="account-title" as="h2" className="h5">
          Modifica account
        </Modal.Title>
      </Modal.Header>
      <Tabs
        activeKey={tab}
        onSelect={(k) => setTab(k ?? "account")}
        className="px-3 pt-2"
        id="account-tabs"
        mountOnEnter
        unmountOnExit
      >
        <Tab eventKey="account" title="Account">
          <Form onSubmit={submit} noValidate>
            <Modal.Body>
              <Field
                id="account-name"
                label="Nome"
                value={name}
                onChange={setName}
                error={errors.name}
                autoComplete="name"
              />
              <fieldset>
                <legend className="fs-6 fw-semibold">Cambio password</legend>
                <Field
                  id="account-current"
                  label="Password attuale"
                  type="password"
                  value={current}
                  onChange={setCurrent}
                  error={errors.password_attuale}
                  autoComplete="current-password"
                />
                <Field
                  id="account-password"
                  label="Nuova password"
                  type="password"
                  value={password}
                  onChange={setPassword}
                  error={errors.password}
                  autoComplete="new-password"
                />
                <Field
                  id="account-confirm"
                  label="Conferma nuova password"
                  type="password"
                  value={confirm}
                  onChange={setConfirm}
                  error={errors.conferma}
                  autoComplete="new-password"
                />
              </fieldset>
            </Modal.Body>
            <Modal.Footer>
              <Button
                variant="outline-secondary"
                onClick={onClose}
                disabled={busy}
              >
                Annulla
              </Button>
              <Button type="submit" variant="primary" disabled={busy}>
                Salva
              </Button>
            </Modal.Footer>
          </Form>
        </Tab>
        <Tab eventKey="verifica" title="Verifica in due passaggi">
          <Modal.Body>
            <VerificationTab />
          </Modal.Body>
        </Tab>
        <Tab eventKey="sessioni" title="Sessioni attive">
          <Modal.Body>
            <SessionsTab />
          </Modal.Body>
        </Tab>
      </Tabs>
    </Modal>
  );
}

/** On or off: turning on through the enrolment, off with the password and a code (where the role allows). */
function VerificationTab() {
  const notify = useNotify();
  const [state, setState] = useState<{
    attiva: boolean;
    richiesta: boolean;
    esente: boolean;
  }>();
  const [enrolling, setEnrolling] = useState(false);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ password?: string; codice?: string }>(
    {},
  );
  const [busy, setBusy] = useState(false);
  const load = useCallback(
    () =>
      api
        .mfaState()
        .then(setState, (err: unknown) =>
          notify("danger", fieldError(err, "_")),
        ),
    [notify],
  );
  useEffect(() => {
    void load();
  }, [load]);

  if (!state) return <p>{msg.loading}</p>;
  if (enrolling) {
    return (
      <MfaEnrolment
        onCancel={() => setEnrolling(false)}
        onDone={() => {
          setEnrolling(false);
          void load();
        }}
      />
    );
  }
  if (!state.attiva) {
    return (
      <>
        <p data-testid="mfa-stato">La verifica in due passaggi non è attiva.</p>
        <Button variant="primary" onClick={() => setEnrolling(true)}>
          Attiva la verifica in due passaggi
        </Button>
      </>
    );
  }
  const turnOff = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setBusy(true);
    try {
      const result = await api.mfaOff(password, code.replace(/\s/g, ""));
      notify("success", result.message);
      setPassword("");
      setCode("");
      void load();
    } catch (err) {
      setErrors({
        password: isApiError(err, "VALIDATION")
          ? err.errors.password?.[0]
          : undefined,
        codice: fieldError(err, "codice"),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p data-testid="mfa-stato">La verifica in due passaggi è attiva.</p>
      {state.richiesta && !state.esente ? (
        <p className="text-body-secondary">
          Il tuo ruolo la richiede: non può essere disattivata.
        </p>
      ) : (
        <Form onSubmit={turnOff} noValidate>
          <fieldset>
            <legend className="fs-6 fw-semibold">Disattiva</legend>
            <Field
              id="mfa-off-password"
              label="Password attuale"
              type="password"
              value={password}
              onChange={setPassword}
              error={errors.password}
              autoComplete="current-password"
            />
            <Field
              id="mfa-off-codice"
              label="Codice dell'app"
              value={code}
              onChange={setCode}
              error={errors.codice}
              autoComplete="one-time-code"
            />
          </fieldset>
          <Button type="submit" variant="outline-danger" disabled={busy}>
            Disattiva la verifica in due passaggi
          </Button>
        </Form>
      )}
    </>
  );
}

const WHEN = new Intl.DateTimeFormat("it-IT", {
  dateStyle: "short",
  timeStyle: "short",
});

/** 'Sessioni attive': device, address and last use; end one, or all the others. */
function SessionsTab() {
  const notify = useNotify();
  const [sessions, setSessions] = useState<OwnSession[]>();
  const load = useCallback(
    () =>
      api
        .sessions()
        .then(setSessions, (err: unknown) =>
          notify("danger", fieldError(err, "_")),
        ),
    [notify],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const end = async (run: () => Promise<{ message: string }>) => {
    try {
      notify("success", (await run()).message);
    } catch (err) {
      notify("danger", fieldError(err, "_"));
    }
    void load();
  };
  if (!sessions) return <p>{msg.loading}</p>;
  return (
    <>
      <table
        className="table table-sm align-middle"
        data-testid="sessioni-attive"
      >
        <thead>
          <tr>
            <th scope="col">Dispositivo</th>
            <th scope="col">Indirizzo</th>
            <th scope="col">Ultimo uso</th>
            <th scope="col">
              <span className="visually-hidden">Azioni</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td className="small text-break">
                {s.dispositivo ?? "Sconosciuto"}
              </td>
              <td>{s.indirizzo ?? "—"}</td>
              <td>{WHEN.format(new Date(s.ultimo_uso))}</td>
              <td>
                {s.corrente ? (
                  <span className="badge text-bg-secondary">
                    Questa sessione
                  </span>
                ) : (
                  <Button
                    size="sm"
                    variant="outline-danger"
                    onClick={() => void end(() => api.endSession(s.id))}
                  >
                    Termina
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Button
        variant="outline-danger"
        disabled={sessions.length < 2}
        onClick={() => void end(api.endOtherSessions)}
      >
        Termina tutte le altre sessioni
      </Button>
    </>
  );
}
