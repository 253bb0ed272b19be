// Italian texts and codes of the quotation screens (spec 001) that the definitions do not carry.
import type { ListColumn } from '../../types.ts';

/** Traffic light of a quotation or vehicle: the server answers v/g/r, the model catalogue verde/giallo/rosso. */
export const COLOUR_TITLES = new Map<unknown, string>([
  ['v', 'Verde'],
  ['g', 'Giallo'],
  ['r', 'Rosso'],
]);

/** The chip column used with the registry's 'chip' cell renderer. */
export const COLOUR_COLUMN: ListColumn = { field: 'colore', headerName: 'Colore', format: 'chip', chips: { v: 'success', g: 'warning', r: 'danger' } };

export function colourCode(modelColour: unknown): 'v' | 'g' | 'r' | undefined {
  const c = String(modelColour ?? '').toLowerCase();
  return c === 'verde' ? 'v' : c === 'giallo' ? 'g' : c === 'rosso' ? 'r' : undefined;
}

/** Status id of the direct quotation (spec 001 §1). */
export const STATO_DIRETTA = 12;

export const t = {
  tabRaccolta: 'Raccolta dati',
  tabDocumenti: 'Documenti',
  tabStorico: 'Storico',
  cliente: 'Cliente',
  collaboratore: 'Collaboratore',
  quotazione: 'Quotazione n.',
  prodotto: 'Prodotto',
  stato: 'Stato',
  anteprima: 'Anteprima quotazione',
  preventivi: 'Preventivi',
  premioBase: 'Premio base',
  competenze: 'Competenze',
  totale: 'Totale',
  premioCompagnia: 'Premio compagnia',
  dirittiBroker: 'Diritti del broker',
  premioForzato: 'Premio forzato',
  calcola: 'Calcola',
  calcoloInCorso: 'Calcolo in corso…',
  primaSalva: 'Salva la quotazione per calcolare il premio.',
  nessunCalcolo: 'Premio non ancora calcolato.',
  salva: 'Salva',
  azioni: 'Azioni della quotazione',
  nessunaAzione: 'Nessuna azione disponibile in questo stato.',
  cambiaStato: 'Cambia stato',
  nuovoStato: 'Nuovo stato',
  nota: 'Nota',
  storico: 'Storico stati',
  storicoVuoto: 'Nessun cambio di stato registrato.',
  quando: 'Data',
  chi: 'Utente',
  da: 'Da',
  a: 'A',
  evento: 'Evento',
  salvataggio: 'Quotazione salvata con successo',
  competenzeNote: 'Inserire le competenze anche nelle note per favore.',
  link: {
    titolo: 'Link personale del cliente',
    faseForm: 'Il cliente deve compilare il modulo con i suoi dati.',
    faseDocumenti: 'Il cliente deve caricare i documenti.',
    copia: 'Copia',
    apri: 'Apri',
    inviaDiNuovo: 'Invia di nuovo',
    copiato: 'Link copiato negli appunti.',
    copiaNonRiuscita: 'Copia non riuscita: il link è selezionato, copialo con Ctrl+C.',
    inviato: 'Link inviato di nuovo a {email}.',
  },
  veicoli: {
    aggiungi: 'Aggiungi veicolo',
    titoloDialogo: 'Aggiungi veicolo storico',
    marca: 'Marca',
    sceltaMarca: 'Scegli una marca…',
    cerca: 'Cerca modello',
    risultati: 'Modelli trovati',
    nessunModello: 'Nessun modello trovato per questa ricerca.',
    scegliModello: 'Scegli un modello dall’elenco.',
    elimina: 'Elimina veicolo',
    eliminaTitolo: 'Elimina veicolo',
    eliminaTesto: 'Sicuro di voler cancellare il veicolo?',
    nessuno: 'Nessun veicolo storico inserito.',
    azioni: 'Azioni',
    aggiungiConferma: 'Aggiungi',
    operazione: 'Operazione',
    codiceFiscale: 'Codice Fiscale',
    datiAnia: 'Dati Ania',
    dettagli: 'Dettagli',
    aggiornaAnia: 'Aggiorna dati Ania',
    targaPerAnia: 'Devi compilare la targa per aggiornare i dati ania',
    erroreVerti: 'Errore Verti',
    datiAggiornati: 'Dati Ania aggiornati',
  },
  ania: {
    titolo: 'Dati Ania',
    tabDati: 'Dati Ania',
    tabAvanzato: 'Avanzato',
    chiudi: 'Chiudi',
    nessunDato: 'Dati Ania non ancora richiesti per questo veicolo.',
    attestato: 'Attestato di rischio',
    intestatario: 'Intestatario',
    beneficiario: 'Avente diritto',
    formaTariffaria: 'Forma tariffaria',
    classeCompagnia: 'Classe di merito compagnia',
    classeCu: 'Classe CU',
    scadenza: 'Scadenza contratto',
    ricezione: 'Data aggiornamento',
    franchigia: 'Franchigia',
    sinistri: 'Sinistri per anno',
    tipoSinistro: 'Tipo sinistro',
    sivi: 'SIVI',
    atrc: 'ATRC',
    immatricolazione: 'Data immatricolazione',
    peso: 'Peso (quintali)',
    avvisi: 'Avvisi',
    rispostaCompleta: 'Risposta completa del registro',
  },
} as const;
