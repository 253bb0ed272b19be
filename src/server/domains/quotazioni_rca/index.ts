// Motor-liability fast quotation (spec 002 §2.4, §2.5, §7.2, §7.3): list filter hook and the quotation routes.
import './hooks.ts';
import './routes.ts';
