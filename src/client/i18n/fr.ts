import { formatCount } from '../../rules/index.ts';
import type { Strings } from './strings.ts';
import { typesetStrings } from './typography.ts';

const plural = (n: number, one: string, many: string) => (n > 1 ? many : one);

/** As written; `fr` below is what the player reads (typeset). */
const written: Strings = {
  title: 'SPINCAKE',
  loading: 'Préparation des gâteaux…',
  play: 'Jouer',
  playBusy: 'Achat…',
  goAll: 'GO',
  goAllLabel: 'GO',
  go: 'GO',
  goWheelLabel: (w) => `GO roue ${w}`,
  stakeLabel: (amount) => `Mise ${amount}`,
  stakeHeading: 'Mise',
  balance: 'Solde',
  mute: 'Couper le son',
  unmute: 'Remettre le son',
  quickSpin: 'Rotation rapide',
  history: 'Historique',
  rules: 'Règlement',
  close: 'Fermer',
  wheelLabel: (w) => `Roue ${w}`,
  symbols: {
    bell: 'cloche',
    cupcake: 'cupcake',
    macaron: 'macaron',
    donut: 'donut',
    cherry: 'cerise',
    croissant: 'croissant',
  },
  points: (p) => `${formatCount(p, 'fr')} points`,
  wheelResult: (w, p, s) => `Roue ${w} : ${p} points, ${s}`,
  jeu1: 'JEU 1',
  jeu2: 'JEU 2',
  bellsFound: (b) => (b === 0 ? 'Aucune cloche' : `${b} ${plural(b, 'cloche', 'cloches')}`),
  pointsTotal: (p) => `${formatCount(p, 'fr')} points`,
  noWin: 'Pas de gain',
  total: 'Gain total',
  resultLine: (game, detail, win) => `${game} : ${detail}, ${win}`,
  totalLine: (amount) => `Gain total : ${amount}`,
  youWin: 'Gagné !',
  lostTitle: 'Pas de gain',
  lostMessage: 'Ce ticket n’est pas gagnant.',
  newRound: 'Nouvelle partie',
  errors: {
    INVALID_INPUT: 'Demande refusée par le serveur.',
    NO_SESSION: 'Votre session a expiré. Rechargez la page.',
    INSUFFICIENT_BALANCE: 'Solde insuffisant pour cette mise. Choisissez une mise plus petite.',
    SALES_CLOSED: 'Les ventes sont fermées.',
    SOLD_OUT: 'Plus aucun ticket à cette mise : choisissez-en une autre.',
    PLAY_ID_REUSED: 'Cet achat a déjà été fait avec une autre mise.',
    NOT_FOUND: 'Partie introuvable.',
    RATE_LIMITED: 'Trop de demandes : patientez un instant.',
    LIMIT_REACHED: 'Limite de jeu atteinte : votre compte n’accepte plus de mise pour le moment. Rien n’a été débité.',
    PLAYER_BLOCKED: 'Compte bloqué : votre compte ne peut pas miser. Rien n’a été débité. Contactez le service client.',
    WALLET_UNAVAILABLE: 'Service de paiement indisponible — réessayez. Rien n’a été débité.',
    INTERNAL: 'Le serveur a rencontré un problème. Réessayez dans un instant.',
    REQUEST_TIMEOUT: 'Le serveur a mis trop de temps à recevoir la demande. Réessayez : rien n’a été débité.',
    SHUTTING_DOWN: 'Le serveur redémarre. Réessayez dans un instant : rien n’a été débité.',
    DEMO_ONLY: 'Seul un solde de démonstration peut être rechargé.',
    BALANCE_NOT_LOW:
      'Votre solde de démonstration paie encore une mise : la démo se recharge une fois le solde épuisé.',
    network: 'Connexion impossible. Vérifiez votre réseau puis réessayez : vous ne serez débité qu’une fois.',
    unknown: 'Une erreur est survenue.',
  },
  salesClosed: 'Ventes fermées',
  soldOut: 'épuisé',
  historyEmpty: 'Aucune partie pour l’instant.',
  historyMore: 'Parties plus anciennes',
  historyWin: 'Gain',
  historyStake: 'Mise',
  historyDate: 'Date',
  historyCursors: (c) => `Sous les curseurs : ${c}`,
  historyReplay: 'Revoir cette partie sur les roues',
  ticketCheck: {
    action: 'Vérifier ce ticket',
    busy: 'Vérification…',
    verified: (position, count) =>
      `Ticket vérifié : c’est le ticket n° ${formatCount(position, 'fr')} sur ${formatCount(count, 'fr')} de son bloc, dans l’ordre de vente fixé avant la première vente.`,
    refuted: 'Vérification échouée : ce ticket ne correspond pas à l’engagement publié.',
    noProof: 'Ce ticket ne vient d’aucun bloc (partie de test) : il n’a pas de preuve.',
    offline: 'Vérification impossible sans réseau. Vérifiez votre connexion puis réessayez.',
    checks: {
      shape: (ok) => (ok ? 'La preuve reçue est complète.' : 'La preuve reçue est illisible ou incomplète.'),
      lot: (ok, lot) =>
        ok
          ? `Selon le règlement, les roues sous les curseurs donnent bien le gain du ticket (${lot}).`
          : `Selon le règlement, les roues sous les curseurs ne donnent pas le gain annoncé (${lot}).`,
      leaf: (ok) =>
        ok
          ? 'Votre ticket (ses roues, ses curseurs, son gain, sa place) est exactement celui que la preuve décrit.'
          : 'Votre ticket (ses roues, ses curseurs, son gain, sa place) n’est pas celui que la preuve décrit.',
      path: (ok) =>
        ok
          ? 'Ce ticket est bien celui prévu dans le bloc publié avant la vente.'
          : 'Ce ticket n’est pas celui prévu dans le bloc publié avant la vente.',
      published: (ok) =>
        ok
          ? 'Le bloc est bien celui que le jeu a publié avant sa première vente.'
          : 'Le bloc n’est pas celui que le jeu a publié avant sa première vente.',
      play: (ok) =>
        ok
          ? 'Le ticket prouvé est bien la partie de votre historique.'
          : 'Le ticket prouvé n’est pas la partie de votre historique.',
      entry: (ok) =>
        ok
          ? 'Le journal public des blocs annonce bien ce bloc, tel qu’il a été publié.'
          : 'Le journal public des blocs n’annonce pas ce bloc tel qu’il a été publié.',
      inclusion: (ok) =>
        ok
          ? 'Cet engagement figure bien dans l’état signé du journal.'
          : 'Cet engagement ne figure pas dans l’état signé du journal.',
      signature: (ok) =>
        ok ? 'L’état du journal est signé par la clé du journal.' : 'La signature de l’état du journal est fausse.',
      key: (ok) =>
        ok ? 'Cette clé est celle que le serveur publie.' : 'Cette clé n’est pas celle que le serveur publie.',
      'head time': (ok) =>
        ok
          ? 'Cet état du journal a été signé avant la vente du ticket.'
          : 'Cet état du journal n’a pas été signé avant la vente du ticket.',
      'played at': (ok) =>
        ok
          ? 'L’heure de vente prouvée est celle de votre partie.'
          : 'L’heure de vente prouvée n’est pas celle de votre partie.',
    },
  },
  replayNotice: (date) => `Rediffusion de la partie du ${date}.`,
  replayTitle: (date) => `Rediffusion — partie du ${date}`,
  replayBack: 'Retour au jeu',
  replayAgain: 'Revoir',
  historyUnfinished: 'en cours',
  rulesIntro: [
    'Choisissez une mise (1, 2, 3 ou 5 €) puis « Jouer » : la mise est débitée et un ticket vous est attribué.',
    'Lancez chaque roue avec son « GO », ou toutes celles qui restent avec le « GO » commun.',
    'JEU 1 : comptez les cloches sous les curseurs. JEU 2 : additionnez les points sous les curseurs ; 400 points ou plus gagnent.',
    'Les gains des deux jeux s’additionnent en un lot unique. Si vous ne voyez pas la fin d’une partie, son résultat est dans l’historique.',
  ],
  rulesJeu1Heading: 'JEU 1 — les cloches',
  rulesJeu2Heading: 'JEU 2 — les points',
  rulesBlockHeading: (stake) => `Bloc d’unités de jeu à ${stake}`,
  rulesBells: (b) => `${b} ${plural(b, 'cloche', 'cloches')}`,
  rulesPoints: (min, max) =>
    min === max ? `${formatCount(min, 'fr')} points` : `${formatCount(min, 'fr')} à ${formatCount(max, 'fr')} points`,
  rulesLots: 'Nombre de lots',
  rulesAmount: 'Montant',
  rulesOdds: (oneIn, payout) => `Chances de gain : 1 sur ${oneIn}. Taux de retour aux joueurs : ${payout}.`,
  rulesLosing: 'tickets perdants',
  resumeNotice: 'Partie en cours reprise.',
  rendererLabel: 'Rendu',
  // ——— issue 15: what a player sees and hears ———
  boughtNotice: (stake, balance) =>
    `Mise de ${stake} payée. Nouveau solde : ${balance}. Les roues peuvent être lancées : GO.`,
  refundTitle: 'Mise remboursée',
  cursorsHeading: 'Sous les curseurs',
  seeWheels: 'Voir les roues',
  seeResult: 'Voir le résultat',
  lastResultNotice: 'Résultat de votre dernière partie.',
  rulesStakeColumn: (stake) => `Mise ${stake}`,
  rulesFind: 'Vous découvrez',
  rulesCollect: 'Vous collectez',
  rulesSum:
    'Les gains du JEU 1 et du JEU 2 d’une même unité de jeu s’additionnent pour former un lot unique et indivisible.',
  rulesLotsHeading: 'Lots, chances de gain et taux de retour',
  rulesTotal: 'Total',
  rulesLotCount: (n, formatted) => `${formatted} ${plural(n, 'lot de', 'lots de')}`,
  rulesBlockTotal: (winning) => `${winning} lots formant un total de`,
  rulesAddedOnly: (amounts) =>
    `Les montants de ${amounts.join(', de ').replace(/, de ([^,]*)$/, ' et de $1')} ne sont accessibles qu’en cumulant un gain au JEU 1 et un gain au JEU 2 au sein d’une même unité de jeu.`,
  rulesOddsDetail: (winning, block) =>
    `Chaque bloc compte ${block} unités de jeu, dont ${winning} gagnantes. Le montant d’un lot est le lot global de l’unité de jeu.`,
  salesOpenOn: (date) => `Ouverture des ventes le ${date}.`,
  salesClosedOn: (date) => `Les ventes ont fermé le ${date}.`,
  salesWindowDates: (opens, closes) => `Ventes ouvertes du ${opens} au ${closes}.`,
  balanceTooLow: (balance, smallest) =>
    `Votre solde (${balance}) est insuffisant pour jouer : la plus petite mise est de ${smallest}.`,
  deposit: 'Alimenter mon compte',
  reloadDemo: 'Recharger la démo',
  reloadDemoBusy: 'Rechargement…',
  demoReloaded: (balance) => `Démo rechargée : votre solde de démonstration est de ${balance}.`,
  soldOutLabel: (amount) => `Mise ${amount}, épuisée`,
  adultsOnly: '18+',
  adultsOnlyLabel: 'Interdit aux mineurs',
  riskLine:
    'Jouer comporte des risques : endettement, isolement, dépendance. Pour être aidé, appelez le 09 74 75 13 13 (appel non surtaxé)',
  limitsLink: 'Limites de jeu et auto-exclusion',
  demo: 'DÉMO',
  demoLabel: 'Solde de démonstration : argent fictif',
  sessionLine: (minutes, staked, won, net) =>
    `Session en cours depuis ${minutes} · Mises : ${staked} · Gains : ${won} · Résultat net : ${net}`,
  sessionMinutes: (m) => (m < 1 ? 'moins d’une minute' : m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`),
  historyRef: (ref) => `Réf. ticket : ${ref}`,
  historySegment: (points, symbol) => `${formatCount(points, 'fr')} points (${symbol})`,
  historyLive: 'Résultat affiché à l’arrêt des quatre roues.',
  logHead: (entries, hashStart) =>
    `Journal public des blocs vu ici : ${entries}\u00a0entrées, empreinte ${hashStart}… (la même pour tous les joueurs, à comparer)`,
  historyLeft: 'partie quittée avant la fin : résultat enregistré',
  paused: 'Jeu en pause',
  // ——— issue 30: the show ———
  liveTally: (bells, points) =>
    `${bells}\u00a0${plural(bells, 'cloche', 'cloches')} · ${formatCount(points, 'fr')}\u00a0pts`,
  takeoverTitle: { big: 'Gros gain\u202f!', mega: 'Méga gain\u202f!', jackpot: 'JACKPOT\u202f!' },
  takeoverSkip: 'Touchez pour continuer',
  purchasePending: (stake) =>
    `Achat en attente — reprise… Connexion impossible pour l’instant : votre achat de ${stake} sera renvoyé tout seul dès le retour du réseau. Vous ne serez débité qu’une fois.`,
  resumePurchase: 'Reprendre l’achat',
  resumePurchaseLabel: (stake) => `Reprendre l’achat de ${stake}`,
  resumedTitle: 'Partie reprise',
  stakeAdjusted: (stake) => `Mise ajustée à ${stake} : votre solde ne couvre pas la mise choisie.`,
  balancePending: 'Achat en attente : mise réservée',
};

export const fr: Strings = typesetStrings(written, 'fr');
