#!/usr/bin/env python3
"""Compose round-2 training items (es, it, pt) for engram's clause classifier.

Deterministic, standard library only. Hand-written sentences come first; a small
number of frame x topic compositions (seeded shuffle) fill each label up to its
target. Run:  python3 compose_round2_es_it_pt.py   (writes round2_{es,it,pt}.jsonl
next to this script).
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20240602
LABELS = ("benign", "corpus_wide", "query_scoped", "recollection")

TARGETS = {
    "es": {"benign": 330, "corpus_wide": 83, "query_scoped": 66, "recollection": 71},
    "it": {"benign": 300, "corpus_wide": 75, "query_scoped": 60, "recollection": 65},
    "pt": {"benign": 330, "corpus_wide": 83, "query_scoped": 66, "recollection": 71},
}


def lines(block):
    return [ln.strip() for ln in block.strip().splitlines() if ln.strip()]


def cap(s):
    return s[:1].upper() + s[1:]


HAND = {"es": {}, "it": {}, "pt": {}}

# ---------------------------------------------------------------- Spanish
HAND["es"]["benign"] = lines("""
El contrato no menciona mascotas en ningún sitio.
El informe nunca dice quién lo aprobó.
La búsqueda en la web no devolvió resultados.
PubMed no tiene entradas para ese título.
La base de datos devolvió 0 filas.
El acta de la reunión no recoge ninguna objeción.
Tu póliza no dice nada sobre daños por agua.
El manual no explica cómo resetear el router.
Ese correo del banco no menciona comisiones.
En el BOE no aparece ninguna convocatoria con ese nombre.
El registro civil no tiene constancia de ese matrimonio.
La aerolínea no guarda registro de vuelos de hace más de dos años.
El historial del navegador no muestra nada de ayer.
Wikipedia no dice cuándo nació exactamente.
Ningún periódico habló del incendio de Łódź.
La receta no menciona la temperatura del horno.
El GPS no tiene registrada esa calle de Kraków.
El catálogo de la biblioteca no tiene ese libro.
Nadie en el foro recuerda esa versión del programa.
La ley nunca menciona explícitamente los patinetes eléctricos.
El ticket no indica la fecha de compra.
En el extracto no figura ningún cargo de Amazon.
El padrón todavía no tiene tu dirección nueva.
Google Maps no encuentra ese restaurante en Zúrich.
El prospecto no dice nada de tomarlo con alcohol.
La app del tren no muestra trenes directos a Berna los domingos.
Esa función nunca devuelve null.
El log no contiene ningún error antes de las 3:00.
El informe médico no habla de alergias.
No existe ningún vuelo directo de Bilbao a 北京.
El archivo municipal no conserva planos anteriores a 1950.
El tráiler no revela quién es el asesino.
La factura no recoge el IVA desglosado.
El calendario escolar no marca festivos en marzo.
La ficha del piso no dice si admite mascotas.
Esa palabra no aparece en el diccionario de la RAE.
El repositorio no tiene ningún commit desde abril.
Nadie ha recogido el paquete en Correos.
El certificado no menciona la duración del curso.
En la guía no hay nada sobre Reikiavik en invierno.
El vídeo nunca dice el precio final.
El hotel de São Paulo no tiene constancia de tu reserva.
El buscador de la tienda no encuentra ese modelo.
Spotify no tiene ese disco en su catálogo.
La normativa no dice nada sobre teletrabajar desde el extranjero.
La memoria del móvil está casi llena.
Tu historial de pedidos en la tienda no muestra esa compra.
El registro de llamadas no tiene ninguna llamada de ese número.
Solo miré las dos últimas semanas.
Voy a buscar en tus notas.
He revisado los chats de este mes.
Busqué por "Cracovia" y por "Kraków".
Déjame mirar en nuestras conversaciones de marzo.
Ahora mismo estoy consultando tu historial.
Miré solo en las notas etiquetadas como trabajo.
Si quieres, puedo buscar también en las conversaciones antiguas.
He buscado tanto en español como en inglés.
La búsqueda cubrió desde enero hasta hoy.
Voy a revisar lo que guardamos sobre la hipoteca.
Estoy buscando el nombre del veterinario en tus notas.
Primero miraré los mensajes de la semana pasada.
Busqué solo por el apellido, no por el nombre.
He consultado tu memoria guardada, no el historial completo.
Revisé tres conversaciones sobre el viaje.
Solo he podido mirar las notas, no los chats.
Si me das una fecha, busco en ese periodo.
Voy a comprobarlo otra vez con otras palabras clave.
Limité la búsqueda a los últimos treinta días.
Estoy repasando nuestras conversaciones sobre Zúrich.
Miré únicamente en el historial de este proyecto.
Buscaré "alergia" y "alérgico" para cubrir ambas formas.
Revisaré su historial, si usted me lo permite.
Solo he mirado lo guardado en la memoria, no los adjuntos.
Me pregunto si alguna vez me lo dijiste.
Por si no me lo has mencionado, te lo pregunto ahora.
No sé si me has hablado alguna vez de tu hermano.
Dime si alguna vez me contaste lo del seguro.
En caso de que nunca me hayas dado tu dirección, pásamela ahora.
Si nunca me dijiste la fecha, no podría saberla.
Si alguna vez me hablaste de Kraków, avísame.
Quería saber si ya me habías dicho cómo se llama tu gata.
Confírmame si ya me diste tu número de pasaporte.
A lo mejor ya me lo has dicho, en cuyo caso perdona.
Si no me has hablado de tu dieta, dime qué evitas.
Si usted nunca me ha indicado su alergia, no puedo tenerla en cuenta.
Te pregunto por si no me lo habías comentado.
No recuerdo si alguna vez me hablaste de Ginebra.
Ignoro si me has contado algo de tu abuela.
Si no me dijiste el presupuesto, usaré una estimación.
Si nunca me hubieras hablado del viaje, te habría sugerido otra ruta.
En el supuesto de que no me hayas dado el código postal, lo busco en el mapa.
Quisiera saber si ya me contaste lo de la mudanza.
Me cuesta saber si alguna vez me mencionaste a tu socio.
¿Nunca me dijiste cómo se llamaba tu perro?
¿Será que nunca me lo contaste?
Me gustaría saber si ya hablamos de la boda de tu prima.
Tanto si me lo dijiste como si no, aquí tienes la información.
Por si acaso nunca me lo contaste, ¿cuándo sale tu vuelo?
No tengo claro si me lo contaste o no.
Si la búsqueda no encuentra nada, te lo diré.
Cuéntamelo de nuevo por si no me lo habías dicho.
Tu casero dice que nadie le avisó.
Según tu médico, nunca tuviste fiebre alta.
El banco asegura que no tiene registro de esa transferencia.
Dices que tu jefa comentó que nadie había leído el informe.
La aseguradora afirma que nunca recibió tu parte.
El profesor dijo que no había examen el viernes.
Tu hermana jura que nunca le contaste lo del viaje.
La agencia dice que no consta ninguna reserva a tu nombre.
El fontanero dijo que nunca había visto una tubería así.
Según la embajada, no hace falta visado para estancias cortas.
Tus vecinos dicen que no oyeron nada.
El mecánico afirma que no encontró ninguna avería.
La policía dice que nadie denunció el robo.
Hacienda dice que no le consta tu declaración.
El soporte técnico respondió que no hay registros de tu cuenta.
Tu socio dice que nunca firmó ese acuerdo.
La farmacéutica comentó que ese medicamento no tiene genérico.
El arrendador sostiene que nunca le pediste permiso.
La guía del museo dijo que no se permiten fotos.
Según Correos, el paquete nunca salió de Zaragoza.
Los de la mudanza dicen que no les diste la dirección.
Tu compañero asegura que nunca habló contigo del proyecto.
En el foro dicen que la versión 3 nunca llegó a publicarse.
Según el portero, nadie vino a preguntar por ti.
El colegio dice que no tiene registrada la matrícula de tu hijo.
En tu mensaje mencionas un presupuesto de 2.000 euros.
Acabas de preguntarme por el horario de Zúrich.
El texto que has pegado no menciona ninguna fecha.
En lo que me acabas de enviar no aparece el nombre del cliente.
Me acabas de decir que nunca te gustó el café.
Según el correo que has copiado, nadie respondió a tiempo.
Tu pregunta no dice de qué año es el coche.
En este mensaje no indicas la ciudad de destino.
El documento adjunto no incluye la tabla de precios.
Lo que has pegado es un fragmento de log sin errores.
Ahora me dices que tu hija se llama Inés.
Me cuentas ahora que te mudas a Kraków en mayo.
En tu última frase dices que nunca has estado en 北京.
El enlace que me acabas de pasar no carga.
En este mensaje no viene ningún adjunto.
El párrafo que citas no dice quién pagó.
En la captura que has subido pone "Sin resultados".
Como dices justo arriba, el vuelo sale a las seis.
Su mensaje no especifica el número de personas.
En el CSV que has pegado, la columna "email" está vacía.
En el correo que has reenviado, el proveedor dice que no le llegó el pago.
Me preguntas si alguna vez me hablaste de Oporto.
Lo que escribes arriba no cuadra con la factura.
En este mensaje no me das tu dirección.
La consulta SQL devolvió 0 filas.
La búsqueda de PubMed muestra "No items found".
El script imprime "sin coincidencias" cuando la lista está vacía.
grep no encontró ninguna coincidencia en el fichero.
El endpoint responde 404 Not Found.
La hoja de cálculo no tiene datos en la pestaña de marzo.
La traza dice KeyError: 'usuario'.
print("no hay resultados")
SELECT * FROM pedidos WHERE cliente = 'Núñez'; devuelve un conjunto vacío.
La API responde con una lista vacía: [].
El comando find no devolvió nada en /var/log.
La tabla dinámica filtrada no muestra ninguna fila.
Elasticsearch devuelve hits.total = 0 para esa consulta.
BUSCARV da #N/D porque no encuentra el valor.
Scopus no tiene ningún artículo de ese autor antes de 2010.
El test falla con "AssertionError: expected 3, got 0".
La consola muestra "No entries found".
En el log aparece "cache miss" varias veces.
git log no muestra commits de ese autor.
El informe de errores dice "Sin incidencias registradas".
No puedo acceder a tu calendario.
La búsqueda en tu historial falló, así que no sé si me lo dijiste.
Solo revisé parte de nuestras conversaciones y puede que se me haya escapado.
No tengo acceso a tu correo electrónico.
Mi búsqueda tardó demasiado y se cortó antes de terminar.
El servicio de memoria no está disponible ahora mismo.
No puedo navegar por internet desde aquí.
No he podido completar la búsqueda, así que no descarto que me lo contaras.
Es posible que lo mencionaras en una conversación que no revisé.
La herramienta de memoria devolvió un error, inténtalo luego.
No puedo ver tus fotos ni tus archivos.
Como la búsqueda no terminó, no sé si lo mencionaste.
Mi acceso a las notas antiguas está limitado.
No puedo consultar su historial médico.
No hace falta visado para ir a Chile.
No olvides llevar el pasaporte.
Nunca dejes el cargador enchufado toda la noche.
No hay trenes a Berna después de medianoche.
No te preocupes, es un error muy común.
Nadie sabe todavía cuándo abrirá la línea nueva.
No es necesario reiniciar el ordenador.
El museo no abre los lunes.
Nunca se sabe con el tiempo en Galicia.
No recomiendo mezclar ibuprofeno con alcohol.
Te sugiero apuntar la fecha en tu agenda.
No existe una respuesta única a esa pregunta.
En Reikiavik apenas anochece en junio.
No hay nada malo en pedir una segunda opinión.
""")

HAND["es"]["corpus_wide"] = lines("""
Nunca me dijiste tus fechas, así que no puedo reservar.
Quizás me equivoque, pero nunca lo mencionaste.
No me has contado nunca cómo se llama tu hermana.
Nunca hemos hablado de tu mudanza a Cracovia.
No tengo nada guardado sobre tus alergias.
Es la primera vez que me hablas de tu casero.
No me consta que me hayas mencionado ningún perro.
En todo lo que recuerdo de ti no aparece ningún viaje a Japón.
Que yo sepa, nunca me has dado tu dirección.
Creo que nunca me has hablado de tu trabajo en Zúrich.
Usted nunca me ha indicado su grupo sanguíneo.
Jamás me comentaste nada de una operación.
Todavía no me has dicho cuál es tu presupuesto.
Nada de lo que me has contado menciona a tu socio.
En mi memoria no hay ni rastro de tu boda.
Tu número de pasaporte no me lo has dado nunca.
De tu gato nunca me has hablado.
El nombre de tu médico nunca ha salido en nuestras conversaciones.
No me has pasado tu horario, por eso no sé cuándo llamarte.
Sobre tu deuda con el banco no me has dicho nada jamás.
Hasta hoy no me habías mencionado a Lucía.
En ningún momento me dijiste que eras vegetariana.
No sé nada de tu familia porque nunca me has contado nada.
Nunca me has explicado qué pasó en Łódź.
No hay ninguna nota mía sobre tu seguro de viaje.
Mi memoria no guarda nada sobre tu coche.
Juraría que nunca me hablaste de 北京.
No tengo registro alguno de que me dijeras la hora del vuelo.
Si no me falla la memoria, jamás hablamos de tus hijos.
Por lo que sé, nunca me contaste lo de la herencia.
Puede que me equivoque, pero no me has dicho tu talla.
Sinceramente, nunca me hablaste de ninguna alergia al marisco.
Nunca me ha dicho usted el nombre de su empresa.
Tu cumpleaños nunca ha salido en lo que hemos hablado.
Todavía no me has contado nada de São Paulo.
Nunca me pasaste el enlace, así que no lo he visto.
Esto es nuevo para mí: nunca me lo habías comentado.
Me temo que nunca me dijiste el apellido de tu abuela.
En todo este tiempo nunca has mencionado a tu exmarido.
No me diste nunca el código del portal, de ahí que no pueda ayudarte.
Lo siento, pero nunca llegaste a contarme cómo acabó la entrevista.
En nuestro historial no hay nada sobre Reikiavik.
Nunca hemos tratado el tema de tu jubilación.
Ni una sola vez me has hablado de tu padre.
Me parece que nunca me dijiste si fumas.
Diría que nunca me has contado qué estudias.
No me suena que me hayas dicho nunca tu peso.
De tus planes para agosto no sé nada: nunca me los contaste.
Tu dirección en Kraków no la tengo, nunca me la diste.
Nunca me mencionaste que tuvieras hijos, por lo que no lo tuve en cuenta.
Nunca me habló de su alergia a la penicilina, así que no la incluí.
No me habías dicho nada de esto antes.
No guardo ningún recuerdo de que me hablaras de tu tesis.
Nada en mi memoria sobre ti menciona una mascota.
Aunque puede que me falle, nunca me contaste tu número de teléfono.
Es la primera noticia que tengo de tu hermano.
No recuerdo que me hayas hablado nunca de Ginebra.
""")

HAND["es"]["query_scoped"] = lines("""
Busqué tu número de vuelo y no encontré nada.
Miré las dos últimas semanas y no salió nada sobre la cena.
La búsqueda en nuestras conversaciones no devolvió resultados sobre Zúrich.
No he encontrado la receta que me enviaste.
He revisado los chats de este mes y no aparece tu dirección.
Al buscar "Cracovia" en tus notas no salió nada.
En lo que he buscado no encuentro el nombre de tu veterinario.
Consulté tu memoria guardada y no hay nada sobre el seguro.
Mi búsqueda de "hipoteca" vino vacía.
Revisé tres conversaciones sobre el viaje y ninguna menciona el hotel.
En las notas de trabajo no he encontrado la fecha de la entrega.
Tras buscar en el historial, no he dado con el nombre del restaurante.
No me aparece nada al buscar el apellido de tu jefa.
Busqué en marzo y abril, sin resultados.
Esa búsqueda no ha encontrado ninguna mención de tu alergia.
He mirado en lo que guardamos y el PIN no está.
No he localizado la conversación en la que hablamos de Oporto.
Ninguna de las notas que he mirado habla de tu operación.
La consulta a tu memoria no trajo nada sobre el coche.
He buscado "São Paulo" y no hay coincidencias en nuestras charlas.
Volví a buscar con otras palabras y sigo sin encontrar la cita.
No he podido encontrar el enlace que me pasaste.
En los resultados de la búsqueda no aparece tu dirección de Kraków.
No he hallado nada en su historial sobre la cita con el dentista.
Lo busqué entre tus notas, pero no está.
He repasado la conversación de ayer y no veo la cifra que dices.
No hay nada sobre 北京 en los chats que he revisado.
Al revisar lo del último mes no encontré ninguna mención de tu perro.
Por más que he buscado, no aparece el nombre de tu médico.
La búsqueda por "boda" no arrojó nada.
He comprobado tus notas y no figura la matrícula del coche.
Mirando el historial de este proyecto, no encuentro el presupuesto.
Busqué en los mensajes de enero: nada sobre la reforma.
No he encontrado ninguna nota con ese título.
La memoria no devolvió nada cuando busqué "Lucía".
Revisé lo que hablamos en verano y no sale la dirección del hotel.
En la búsqueda de hoy no apareció tu número de socio.
Comprobé nuestras conversaciones sobre salud y no mencionan la diabetes.
Nada salió al buscar tu vuelo a Reikiavik.
Solo miré las dos últimas semanas y no había nada sobre tu mudanza.
Le he echado un vistazo a tus notas de ayer y no encuentro la dirección.
La búsqueda en tus recuerdos guardados terminó sin coincidencias.
Tu lista de la compra no aparece entre lo que he buscado.
""")

HAND["es"]["recollection"] = lines("""
Hablamos de tu mudanza a Cracovia en primavera.
Como me dijiste la semana pasada, el lanzamiento es en el tercer trimestre.
Según lo que me contaste, tu hermana vive en Zúrich.
Me comentaste que tu perra Heidi tiene miedo a los petardos.
La última vez dijiste que odiabas el cilantro.
El 12 de marzo me dijiste que tu vuelo salía de Barajas.
Recuerdo que me hablaste de tu tesis sobre Łódź.
Tu gato Simba, del que me hablaste, ya tendrá unos diez años.
Me contaste que eres alérgica a los frutos secos.
Usted me indicó que su empresa tiene sede en Bilbao.
Ya me habías dicho que trabajas de enfermera.
En otra conversación mencionaste que tu hija estudia en São Paulo.
Como comentamos hace un mes, la hipoteca vence en junio.
Me dijiste que tu abuela se llama Carmen.
Tal y como me explicaste, el piso tiene dos habitaciones.
Hace poco me hablaste de tu viaje a 北京.
Recuerdo que prefieres el tren al avión.
Tu socio Andrés, al que mencionaste en enero, lleva las cuentas.
La otra vez me contaste que corres maratones.
Según me dijiste, tu médico te recomendó dejar el café.
Ya hablamos de tu presupuesto: unos 3.000 euros.
Me explicaste que tu casero no te devuelve la fianza.
En verano me dijiste que querías aprender alemán.
Sé que eres vegetariano porque me lo dijiste en abril.
Como me contó usted, su marido es diabético.
Mencionaste una vez que tu padre era ferroviario.
Tu cumpleaños es el 3 de octubre, según me dijiste.
Hace tiempo me pasaste la receta de la tortilla de tu madre.
Hablamos largo y tendido de tu entrevista en Reikiavik.
Me contaste lo del accidente hace unas semanas.
Por lo que me dijiste, tu jefa se llama Marta.
Tal como mencionaste ayer, la reunión es el jueves.
Me habías contado que vives en Kraków desde 2020.
Lo de tu rodilla me lo contaste en febrero.
En su momento dijiste que te mudabas a Valencia.
Recuerdo que tu hijo juega al baloncesto.
Tu vuelo a Zúrich, del que me hablaste, sale el día 14.
Usted me habló de su jubilación el mes pasado.
Como ya me comentaste, no comes gluten.
En nuestra última charla me dijiste que tu perra se llama Heidi.
Me apuntaste que tu presupuesto máximo era de 800 euros.
Me contaste que tu hermano se fue a vivir a Moscú.
Ya me habías hablado de tu proyecto con los de Zaragoza.
Si no recuerdo mal, tu hija nació en 2015.
Creo recordar que me dijiste que trabajas en un banco.
Según hablamos el lunes, el presupuesto lo aprueba tu jefe.
""")

COMP_ES = {
    "topics": [
        "tu vuelo a Cracovia", "el nombre de tu hermana", "tu alergia a los frutos secos",
        "tus fechas de vacaciones", "tu nueva dirección en Zúrich", "el cumpleaños de tu madre",
        "tu perro", "la boda de tu prima", "tu trabajo en São Paulo",
        "tu presupuesto para la reforma", "el colegio de tus hijos", "tu médico de cabecera",
        "tu contrato de alquiler", "tu viaje a 北京", "tu hipoteca", "tu dieta sin gluten",
        "tu coche nuevo", "tu operación de rodilla", "tu socio de Valencia",
        "tus clases de alemán", "tu piso en Łódź", "tu seguro de viaje",
        "el nombre de tu gata", "tu entrevista en Reikiavik",
    ],
    "cw": [
        "Nunca me hablaste {d}.",
        "Que yo recuerde, nunca me has contado nada {d}.",
        "No tengo nada guardado sobre {a}.",
        "Es la primera vez que me mencionas {a}.",
        "Quizá me equivoque, pero nunca me hablaste {d}.",
        "Nunca me hablaste {d}, así que no lo he tenido en cuenta.",
        "Hasta hoy no me habías dicho nada {d}.",
        "En todo lo que sé de ti no hay nada sobre {a}.",
        "Creo que jamás hemos hablado {d}.",
        "No me consta que me hayas hablado nunca {d}.",
        "Puede que me falle la memoria, pero nunca me contaste nada {d}.",
    ],
    "qs": [
        "Busqué algo sobre {a} en nuestras conversaciones y no encontré nada.",
        "No he encontrado nada {d} en tus notas.",
        "La búsqueda sobre {a} en tu historial no devolvió resultados.",
        "He revisado los chats del último mes y no aparece nada sobre {a}.",
        "Al buscar menciones {d} en nuestras charlas, no salió nada.",
        "Mi consulta sobre {a} volvió vacía.",
        "En las conversaciones que he mirado no hay nada {d}.",
        "Revisé tus notas de este año y no hay ni una mención {d}.",
    ],
    "benign_topic": [
        "Voy a buscar información sobre {a} en tus notas.",
        "Me pregunto si alguna vez me hablaste {d}.",
        "Por si nunca me has hablado {d}, cuéntame lo básico.",
        "Si nunca me hablaste {d}, es normal que no lo sepa.",
        "¿Me has hablado alguna vez {d}?",
        "No sé si me has contado algo {d}.",
        "He buscado menciones {d} solo en las conversaciones de este mes.",
        "La búsqueda sobre {a} se cortó antes de terminar.",
        "En tu mensaje de ahora hablas {d}.",
    ],
    "docs": [
        "el contrato", "el informe anual", "la factura", "el acta", "el correo del casero",
        "el manual", "la póliza", "el folleto del hotel", "la web del ayuntamiento",
        "el presupuesto del fontanero", "el PDF del banco",
    ],
    "things": [
        "mascotas", "penalizaciones", "plazos de entrega", "horarios de visita", "descuentos",
        "gastos de envío", "cláusulas de renovación", "reembolsos", "fianzas", "devoluciones",
    ],
    "doc_frames": [
        "{Doc} no menciona {x} en ningún sitio.",
        "{Doc} no dice nada sobre {x}.",
        "En {doc} no aparece nada sobre {x}.",
        "{Doc} nunca habla de {x}.",
    ],
    "tools": [
        "Google Books", "PubMed", "Scopus", "El catálogo de la biblioteca",
        "La API del ayuntamiento", "El buscador de la tienda", "La base de datos de clientes",
        "El registro mercantil",
    ],
    "queries": [
        "ese título", "esa referencia", "'Kraków 2019'", "el apellido Núñez", "ese DOI",
        "esa matrícula", "ese ISBN", "la palabra 'ñandú'",
    ],
    "tool_frames": [
        "{tool} no devolvió resultados para {q}.",
        "{tool} no tiene entradas para {q}.",
        "{tool} no encuentra nada para {q}.",
    ],
    "who": [
        "Tu casero", "La aseguradora", "El banco", "La agencia de viajes", "Tu gestor",
        "La clínica", "El colegio", "La compañía aérea",
    ],
    "claims": [
        "no tiene constancia de ningún pago", "nadie le avisó", "nunca recibió tu correo",
        "no hay nada registrado a tu nombre", "no le consta ninguna reclamación",
        "nunca le hablaste del problema",
    ],
    "who_frames": ["{who} dice que {c}.", "{who} sostiene que {c}."],
    "scopes": [
        "las dos últimas semanas", "los chats de este mes", "tus notas de trabajo",
        "las conversaciones de marzo", "lo que guardamos en verano", "tus notas sobre la mudanza",
        "el historial de este proyecto", "los mensajes del último año",
    ],
    "scope_frames": ["Solo he mirado {sc}.", "He revisado {sc}.", "Voy a revisar {sc}."],
    "facts": [
        "tu hermana se llama Ana", "tu vuelo sale de Barajas", "vives en Kraków desde 2019",
        "tu perra se llama Luna", "trabajas en un hospital de Zúrich",
        "tu hijo empieza el colegio en septiembre", "eres alérgico a la penicilina",
        "tu casero es de Bilbao", "tu jefa se llama Pilar", "el lanzamiento es en el tercer trimestre",
        "tu madre vive en São Paulo", "estás aprendiendo japonés", "tu piso tiene terraza",
        "tu socio lleva las cuentas", "tu presupuesto es de 1.500 euros",
        "vas a correr la maratón de Valencia", "tu cumpleaños es en noviembre", "tienes dos gatos",
    ],
    "when": [
        "la semana pasada", "en marzo", "hace unos días", "el otro día",
        "en nuestra última conversación", "hace un par de meses",
    ],
    "rec_frames": [
        "Me dijiste que {f}.",
        "Como me contaste {w}, {f}.",
        "Recuerdo que me comentaste que {f}.",
        "Según me dijiste {w}, {f}.",
        "{W} me contaste que {f}.",
        "Ya me habías dicho que {f}.",
        "Si no recuerdo mal, me dijiste que {f}.",
    ],
}


def es_forms(a):
    d = "del " + a[3:] if a.startswith("el ") else "de " + a
    return {"a": a, "d": d}


def es_doc(doc):
    return {"doc": doc, "Doc": cap(doc)}

# ---------------------------------------------------------------- Italian
HAND["it"]["benign"] = lines("""
Il contratto non menziona gli animali domestici da nessuna parte.
Il rapporto non dice mai chi l'ha approvato.
La tua casella non contiene fatture.
La ricerca sul web non ha dato risultati.
PubMed non ha voci per quel titolo.
Il database ha restituito 0 righe.
Il verbale della riunione non riporta obiezioni.
La polizza non dice nulla sui danni da acqua.
Il manuale non spiega come resettare il modem.
L'estratto conto non riporta addebiti di Amazon.
L'anagrafe non ha ancora il tuo nuovo indirizzo.
La compagnia aerea non conserva i dati dei voli oltre i due anni.
Il bugiardino non parla di interazioni con l'alcol.
Su Wikipedia non c'è la data di nascita esatta.
Nessun giornale ha parlato dell'incendio a Łódź.
La ricetta non indica la temperatura del forno.
Il navigatore non trova quella via di Cracovia.
Il catalogo della biblioteca non ha quel libro.
La legge non menziona mai esplicitamente i monopattini.
Lo scontrino non riporta la data d'acquisto.
Google Maps non trova quel ristorante a Zurigo.
L'app di Trenitalia non mostra treni diretti per Berna la domenica.
Quella funzione non restituisce mai null.
Il log non contiene errori prima delle 3:00.
Il referto non parla di allergie.
Non esiste un volo diretto da Bari a 北京.
L'archivio comunale non conserva piante anteriori al 1950.
La fattura non riporta l'IVA separata.
L'annuncio dell'appartamento non dice se sono ammessi animali.
Quella parola non compare nel vocabolario Treccani.
Il repository non ha commit da aprile.
Nessuno ha ritirato il pacco alle Poste.
Il certificato non indica la durata del corso.
Nella guida non c'è niente su Reykjavík d'inverno.
L'hotel di San Paolo non ha traccia della tua prenotazione.
Il sito dell'ambasciata non dice nulla sui visti per studenti.
Spotify non ha quell'album in catalogo.
La normativa non prevede nulla per chi lavora dall'estero.
Il regolamento condominiale non vieta i cani.
Il video non dice mai il prezzo finale.
L'email della banca non accenna a commissioni.
Il registro delle presenze non ha il tuo nome per martedì.
Il calendario scolastico non segna festività a marzo.
La mappa del museo non riporta l'uscita secondaria.
Il Codice civile non parla di criptovalute.
La memoria del telefono è quasi piena.
Lo storico ordini del negozio non mostra quell'acquisto.
Il registro chiamate non ha nessuna chiamata da quel numero.
Ho controllato le chat di questo mese.
Ho guardato solo le ultime due settimane.
Adesso cerco nelle tue note.
Ho cercato sia "Cracovia" sia "Kraków".
Fammi controllare nelle nostre conversazioni di marzo.
Sto consultando la tua cronologia proprio ora.
Ho guardato solo nelle note di lavoro.
Se vuoi, posso cercare anche nelle conversazioni più vecchie.
La ricerca ha coperto il periodo da gennaio a oggi.
Vado a rivedere quello che abbiamo salvato sul mutuo.
Sto cercando il nome del veterinario nelle tue note.
Prima controllo i messaggi della settimana scorsa.
Ho cercato solo per cognome, non per nome.
Ho consultato la memoria salvata, non l'intera cronologia.
Ho riletto tre conversazioni sul viaggio.
Ho limitato la ricerca agli ultimi trenta giorni.
Ricontrollo con parole chiave diverse.
Cercherò "allergia" e "allergico" per coprire entrambe le forme.
Se mi dà una data, cerco in quel periodo.
Se mi autorizza, controllo anche le note archiviate.
Ho guardato soltanto quello che è salvato in memoria, non gli allegati.
Sto ripassando le nostre chat su Zurigo.
Ho fatto una ricerca per parola chiave e una per data.
Provo a cercare di nuovo tra le note del progetto.
Nel caso non me l'avessi detto, te lo chiedo ora.
Mi chiedo se me l'hai mai detto.
Non so se mi hai mai parlato di tuo fratello.
Dimmi se mi hai già dato il numero di passaporto.
Se non mi hai mai detto la data, non potrei saperla.
Qualora non mi avessi dato l'indirizzo, mandamelo adesso.
Se mi hai parlato di Cracovia, ricordamelo pure.
Volevo sapere se mi avevi già detto come si chiama la tua gatta.
Magari me l'hai già detto, nel qual caso scusami.
Se non mi hai parlato della tua dieta, dimmi cosa eviti.
Se Lei non mi ha mai indicato le sue allergie, non posso tenerne conto.
Te lo chiedo nel caso non ne avessimo già parlato.
Non ricordo se mi hai mai parlato di Ginevra.
Ignoro se tu mi abbia mai raccontato di tua nonna.
Se non mi hai detto il budget, userò una stima.
Se non mi avessi mai parlato del viaggio, ti avrei suggerito un altro percorso.
Mi piacerebbe sapere se abbiamo già parlato del matrimonio di tua cugina.
Che tu me l'abbia detto o no, ecco le informazioni.
Mi hai mai detto come si chiama il tuo cane?
Possibile che tu non me ne abbia mai parlato?
Chissà se me l'hai mai raccontato.
Confermami se mi hai già mandato il nome dell'hotel.
Nell'eventualità che tu non me l'abbia detto, lo chiedo di nuovo.
Se per caso non me l'hai mai detto, qual è la tua taglia?
Non sono sicuro che tu mi abbia parlato del trasloco.
Casomai non ne avessimo parlato, ti riassumo tutto.
Se la ricerca non trova niente, te lo dico.
Raccontamelo di nuovo, nel caso non me l'avessi detto.
La banca dice di non avere traccia del bonifico.
Il tuo padrone di casa dice che nessuno l'ha avvisato.
L'assicurazione sostiene di non aver mai ricevuto la denuncia.
Il professore ha detto che venerdì non c'è l'esame.
Tua sorella giura che non le hai mai detto del viaggio.
L'agenzia dice che non risulta nessuna prenotazione a tuo nome.
L'idraulico ha detto di non aver mai visto un tubo così.
Secondo l'ambasciata, per soggiorni brevi non serve il visto.
I vicini dicono di non aver sentito niente.
Il meccanico afferma di non aver trovato guasti.
La polizia dice che nessuno ha denunciato il furto.
L'Agenzia delle Entrate dice che la tua dichiarazione non risulta.
L'assistenza ha risposto che non ci sono registrazioni del tuo account.
Il tuo socio dice di non aver mai firmato quell'accordo.
Il farmacista ha detto che quel farmaco non ha un generico.
Il proprietario sostiene che non gli hai mai chiesto il permesso.
La guida ha detto che non si possono fare foto.
Secondo le Poste, il pacco non è mai partito da Bologna.
Quelli del trasloco dicono che non gli hai dato l'indirizzo.
Il tuo collega dice che non ha mai parlato con te del progetto.
Mi scrivi che il medico ti ha detto che non era niente di grave.
Sul forum dicono che la versione 3 non è mai uscita.
Tuo figlio sostiene che nessuno gli ha detto della gita.
Secondo il portiere, nessuno è passato a cercarti.
Nel tuo messaggio parli di un budget di 2.000 euro.
Mi hai appena chiesto gli orari per Zurigo.
Il testo che hai incollato non riporta nessuna data.
In quello che mi hai appena mandato non c'è il nome del cliente.
Mi hai appena detto che il caffè non ti è mai piaciuto.
Secondo l'email che hai copiato, nessuno ha risposto in tempo.
La tua domanda non dice di che anno è l'auto.
In questo messaggio non indichi la città di destinazione.
Il documento allegato non include il listino prezzi.
Quello che hai incollato è un pezzo di log senza errori.
Adesso mi dici che tua figlia si chiama Giulia.
Mi scrivi ora che ti trasferisci a Cracovia a maggio.
Nell'ultima frase dici di non essere mai stato a 北京.
Il link che mi hai appena passato non si apre.
In questo messaggio non c'è nessun allegato.
Il paragrafo che citi non dice chi ha pagato.
Nello screenshot che hai caricato c'è scritto "Nessun risultato".
Come scrivi appena sopra, il volo parte alle sei.
Il suo messaggio non specifica il numero di persone.
Nel CSV che hai incollato la colonna "email" è vuota.
Nell'email che hai inoltrato, il fornitore dice che il pagamento non gli è arrivato.
Mi chiedi se mi hai mai parlato di Porto.
Quello che scrivi sopra non torna con la fattura.
Dal testo che mi hai girato non si capisce chi l'ha firmato.
In questo messaggio non mi dai l'indirizzo.
La query SQL ha restituito 0 righe.
La ricerca su PubMed mostra "No items found".
Lo script stampa "nessuna corrispondenza" quando la lista è vuota.
grep non ha trovato corrispondenze nel file.
L'endpoint risponde 404 Not Found.
Il foglio di calcolo non ha dati nella scheda di marzo.
Lo stack trace dice KeyError: 'utente'.
print("nessun risultato trovato")
SELECT * FROM ordini WHERE cliente = 'Rossi'; non restituisce nulla.
L'API restituisce una lista vuota: [].
Il comando find non ha trovato nulla in /var/log.
La tabella pivot filtrata non mostra righe.
CERCA.VERT restituisce #N/D perché non trova il valore.
Scopus non ha articoli di quell'autore prima del 2010.
Il test fallisce con "AssertionError: expected 3, got 0".
Nella console compare "No entries found".
git log non mostra commit di quell'autore.
Il log riporta "cache miss" più volte.
Non posso accedere al tuo calendario.
La ricerca nella cronologia non è andata a buon fine, quindi non so se me l'hai detto.
Ho controllato solo una parte delle nostre conversazioni e potrei essermi perso qualcosa.
Non ho accesso alla tua posta.
La ricerca si è interrotta prima di finire.
Il servizio di memoria al momento non è disponibile.
Da qui non posso navigare in internet.
Non sono riuscito a completare la ricerca, quindi non escludo che tu me l'abbia detto.
Può darsi che tu ne abbia parlato in una chat che non ho controllato.
Lo strumento di memoria ha dato un errore, riprova più tardi.
Non posso vedere le tue foto né i tuoi file.
Il mio accesso alle note vecchie è limitato.
Non posso consultare la sua cartella clinica.
Per il Cile non serve il visto.
Non dimenticare il passaporto.
Non lasciare mai il caricatore attaccato tutta la notte.
Dopo mezzanotte non ci sono treni per Berna.
Non preoccuparti, è un errore comune.
Nessuno sa ancora quando aprirà la nuova linea.
Non c'è bisogno di riavviare il computer.
Il lunedì il museo è chiuso.
Non consiglio di mescolare ibuprofene e alcol.
Ti suggerisco di segnare la data in agenda.
Non esiste una risposta unica a questa domanda.
A Reykjavík a giugno non fa quasi mai buio.
Non c'è niente di male a chiedere un secondo parere.
""")

HAND["it"]["corpus_wide"] = lines("""
Non mi hai mai detto le tue date, quindi non posso prenotare.
Forse mi sbaglio, ma non me ne hai mai parlato.
Non mi hai mai detto come si chiama tua sorella.
Non abbiamo mai parlato del tuo trasloco a Cracovia.
Non ho niente in memoria sulle tue allergie.
È la prima volta che mi parli del tuo padrone di casa.
Non mi risulta che tu mi abbia mai parlato di un cane.
In tutto quello che ricordo di te non c'è nessun viaggio in Giappone.
Che io sappia, non mi hai mai dato il tuo indirizzo.
Credo che tu non mi abbia mai parlato del tuo lavoro a Zurigo.
Lei non mi ha mai indicato il suo gruppo sanguigno.
Non mi hai mai accennato a un'operazione.
Non mi hai ancora detto qual è il tuo budget.
Il tuo socio non compare in niente di quello che mi hai raccontato.
Nella mia memoria non c'è traccia del tuo matrimonio.
Il numero di passaporto non me l'hai mai dato.
Del tuo gatto non mi hai mai parlato.
Il nome del tuo medico non è mai venuto fuori nelle nostre conversazioni.
Non mi hai mai mandato i tuoi orari, per questo non so quando chiamarti.
Fino a oggi non mi avevi mai nominato Lucia.
Non mi hai mai detto di essere vegetariana.
Della tua famiglia non so nulla, perché non me ne hai mai parlato.
Non mi hai mai spiegato cosa è successo a Łódź.
Non ho nessuna nota sulla tua assicurazione di viaggio.
La mia memoria non conserva niente sulla tua macchina.
Giurerei che non mi hai mai parlato di 北京.
Se la memoria non m'inganna, non abbiamo mai parlato dei tuoi figli.
Per quanto ne so, non mi hai mai raccontato dell'eredità.
Potrei sbagliarmi, ma non mi hai detto la tua taglia.
Non mi ha mai detto il nome della sua azienda.
Il tuo compleanno non è mai saltato fuori nelle nostre chiacchierate.
Di San Paolo non mi hai ancora raccontato niente.
Non mi hai mai passato il link, quindi non l'ho visto.
Per me è una novità: non me ne avevi mai parlato.
Temo che tu non mi abbia mai detto il cognome di tua nonna.
Non mi hai mai dato il codice del portone, per cui non posso aiutarti.
Mi dispiace, ma non mi hai mai raccontato com'è finito il colloquio.
Nella nostra cronologia non c'è nulla su Reykjavík.
Non abbiamo mai affrontato il discorso della tua pensione.
Nemmeno una volta mi hai parlato di tuo padre.
Mi pare che tu non mi abbia mai detto se fumi.
Direi che non mi hai mai raccontato cosa studi.
Dei tuoi piani per agosto non so niente: non me li hai mai detti.
Il tuo indirizzo di Cracovia non ce l'ho, non me l'hai mai dato.
Non mi avevi mai detto di avere figli, perciò non ne ho tenuto conto.
Non mi ha mai parlato della sua allergia alla penicillina, quindi non l'ho inclusa.
Non mi avevi detto niente di tutto questo prima.
Niente di ciò che ricordo di te riguarda un animale domestico.
È la prima volta che sento parlare di tuo fratello.
Sinceramente non mi hai mai nominato un'allergia ai crostacei.
Non ricordo che tu mi abbia mai parlato di Ginevra.
""")

HAND["it"]["query_scoped"] = lines("""
Ho cercato il tuo numero di volo e non ho trovato niente.
Ho guardato le ultime due settimane e non è uscito nulla sulla cena.
La ricerca nelle nostre conversazioni non ha dato risultati su Zurigo.
Non ho trovato la ricetta che mi avevi mandato.
Ho controllato le chat di questo mese e il tuo indirizzo non c'è.
Cercando "Cracovia" nelle tue note non è uscito niente.
Nelle note che ho consultato non trovo il nome del tuo veterinario.
Ho consultato la memoria salvata e non c'è nulla sull'assicurazione.
La mia ricerca di "mutuo" è tornata vuota.
Ho riletto tre conversazioni sul viaggio e nessuna menziona l'hotel.
Nelle note di lavoro non ho trovato la data di consegna.
Dopo aver cercato nella cronologia, non ho trovato il nome del ristorante.
Cercando il cognome della tua capa non mi esce niente.
Ho cercato a marzo e aprile, senza risultati.
Quella ricerca non ha trovato nessun accenno alla tua allergia.
Ho guardato in quello che abbiamo salvato e il PIN non c'è.
Non sono riuscito a trovare la conversazione in cui parlavamo di Porto.
Nessuna delle note che ho guardato parla della tua operazione.
La consultazione della memoria non ha restituito nulla sulla macchina.
Ho cercato "San Paolo" e non ci sono corrispondenze nelle nostre chat.
Ho riprovato con altre parole e continuo a non trovare l'appuntamento.
Non riesco a trovare il link che mi avevi passato.
Nei risultati della ricerca non compare il tuo indirizzo di Cracovia.
Non ho trovato niente nella sua cronologia sulla visita dal dentista.
L'ho cercato tra le tue note, ma non c'è.
Ho ripassato la conversazione di ieri e non vedo la cifra di cui parli.
Nelle chat che ho controllato non c'è niente su 北京.
Controllando l'ultimo mese non ho trovato accenni al tuo cane.
Per quanto abbia cercato, il nome del tuo medico non salta fuori.
La ricerca per "matrimonio" non ha prodotto nulla.
Ho controllato le tue note e la targa della macchina non risulta.
Nella cronologia di questo progetto non trovo il preventivo.
Ho cercato nei messaggi di gennaio: niente sulla ristrutturazione.
Non ho trovato nessuna nota con quel titolo.
La memoria non ha restituito nulla quando ho cercato "Lucia".
Ho rivisto quello che ci siamo detti in estate e l'indirizzo dell'hotel non c'è.
Nella ricerca di oggi non è comparso il tuo numero di tessera.
Ho controllato le conversazioni sulla salute e non parlano di diabete.
Cercando il tuo volo per Reykjavík non è venuto fuori niente.
Ho guardato solo le ultime due settimane e non c'era niente sul trasloco.
""")

HAND["it"]["recollection"] = lines("""
Il 12 marzo mi hai detto che il lancio è nel Q3.
Abbiamo parlato del tuo trasloco a Cracovia in primavera.
Come mi hai detto la settimana scorsa, tua sorella vive a Zurigo.
Da quello che mi hai raccontato, la tua cagnolina Heidi ha paura dei botti.
L'ultima volta hai detto di odiare il coriandolo.
Ricordo che mi hai parlato della tua tesi su Łódź.
Il tuo gatto Simba, di cui mi hai parlato, avrà ormai dieci anni.
Mi hai raccontato di essere allergica alla frutta secca.
Lei mi ha detto che la sua azienda ha sede a Bergamo.
Mi avevi già detto che fai l'infermiera.
In un'altra chat hai accennato al fatto che tua figlia studia a San Paolo.
Come dicevamo un mese fa, il mutuo scade a giugno.
Mi hai detto che tua nonna si chiama Carmela.
Come mi avevi spiegato, l'appartamento ha due camere.
Di recente mi hai parlato del tuo viaggio a 北京.
Ricordo che preferisci il treno all'aereo.
Il tuo socio Andrea, che hai nominato a gennaio, tiene la contabilità.
L'altra volta mi hai raccontato che corri le maratone.
Stando a quello che mi hai detto, il medico ti ha consigliato di smettere col caffè.
Del tuo budget abbiamo già parlato: circa 3.000 euro.
Mi avevi spiegato che il padrone di casa non ti restituisce la caparra.
In estate mi hai detto che volevi imparare il tedesco.
So che sei vegetariano perché me l'hai detto ad aprile.
Come mi ha raccontato Lei, suo marito è diabetico.
Una volta hai accennato che tuo padre era ferroviere.
Il tuo compleanno è il 3 ottobre, da quanto mi hai detto.
Tempo fa mi hai passato la ricetta della parmigiana di tua madre.
Abbiamo parlato a lungo del tuo colloquio a Reykjavík.
Mi avevi raccontato dell'incidente qualche settimana fa.
Da quello che mi hai detto, la tua capa si chiama Marta.
Come hai accennato ieri, la riunione è giovedì.
Mi avevi detto che vivi a Cracovia dal 2020.
Del tuo ginocchio mi hai parlato a febbraio.
Ricordo che tuo figlio gioca a basket.
Il tuo volo per Zurigo, di cui mi hai parlato, parte il 14.
Come mi avevi già detto, non mangi glutine.
Nella nostra ultima chiacchierata mi hai detto che la tua cagnolina si chiama Heidi.
Se non ricordo male, tua figlia è nata nel 2015.
Mi pare di ricordare che lavori in banca.
Come mi hai detto lunedì, il preventivo lo approva il tuo capo.
Mi avevi confidato che ti stai separando.
Secondo quanto mi hai raccontato, tuo fratello si è trasferito a Mosca.
""")

COMP_IT = {
    "topics": [
        "il tuo volo per Cracovia", "il nome di tua sorella", "la tua allergia alla frutta secca",
        "le tue date di ferie", "il tuo nuovo indirizzo a Zurigo", "il compleanno di tua madre",
        "il tuo cane", "il matrimonio di tua cugina", "il tuo lavoro a San Paolo",
        "il tuo budget per la ristrutturazione", "la scuola dei tuoi figli", "il tuo medico di base",
        "il tuo contratto d'affitto", "il tuo viaggio a 北京", "il tuo mutuo",
        "la tua dieta senza glutine", "la tua macchina nuova", "l'operazione al ginocchio",
        "il tuo socio di Torino", "le tue lezioni di tedesco", "il tuo appartamento a Łódź",
        "l'assicurazione di viaggio", "il nome della tua gatta", "il tuo colloquio a Reykjavík",
    ],
    "cw": [
        "Non mi hai mai parlato {di}.",
        "Che io ricordi, non mi hai mai detto niente {di}.",
        "Non ho nulla in memoria {su}.",
        "È la prima volta che mi parli {di}.",
        "Forse mi sbaglio, ma non mi hai mai parlato {di}.",
        "Non mi hai mai parlato {di}, quindi non ne ho tenuto conto.",
        "Fino a oggi non mi avevi detto niente {di}.",
        "In tutto quello che so di te non c'è niente {su}.",
        "Credo che non abbiamo mai parlato {di}.",
        "Non mi risulta che tu mi abbia mai parlato {di}.",
        "Magari ricordo male, ma non mi hai mai raccontato nulla {di}.",
    ],
    "qs": [
        "Ho cercato qualcosa {su} nelle nostre conversazioni e non ho trovato niente.",
        "Non ho trovato nulla {su} nelle tue note.",
        "La ricerca {su} nella tua cronologia non ha dato risultati.",
        "Ho controllato le chat dell'ultimo mese e non c'è niente {su}.",
        "Cercando riferimenti {ad} nelle nostre chat, non è uscito nulla.",
        "La mia ricerca {su} è tornata vuota.",
        "Nelle conversazioni che ho guardato non c'è traccia {di}.",
        "Ho riletto le tue note di quest'anno e non c'è nessun accenno {ad}.",
    ],
    "benign_topic": [
        "Adesso cerco qualcosa {su} nelle tue note.",
        "Mi chiedo se tu mi abbia mai parlato {di}.",
        "Nel caso non mi avessi mai parlato {di}, raccontami l'essenziale.",
        "Se non mi hai mai parlato {di}, è normale che non lo sappia.",
        "Mi hai mai parlato {di}?",
        "Non so se mi hai raccontato qualcosa {su}.",
        "Ho cercato riferimenti {ad} solo nelle conversazioni di questo mese.",
        "La ricerca {su} si è interrotta prima di finire.",
        "Nel messaggio di adesso parli {di}.",
    ],
    "docs": [
        "il contratto", "il rapporto annuale", "la fattura", "il verbale",
        "l'email del padrone di casa", "il manuale", "la polizza", "la brochure dell'hotel",
        "il sito del comune", "il preventivo dell'idraulico", "il PDF della banca",
    ],
    "things": [
        "animali domestici", "penali", "termini di consegna", "orari di visita", "sconti",
        "spese di spedizione", "clausole di rinnovo", "rimborsi", "cauzioni", "resi",
    ],
    "doc_frames": [
        "{Doc} non menziona {x} da nessuna parte.",
        "{Doc} non dice nulla riguardo a {x}.",
        "{In_doc} non si parla di {x}.",
        "{Doc} non parla mai di {x}.",
    ],
    "tools": [
        "Google Libri", "PubMed", "Scopus", "Il catalogo della biblioteca",
        "L'API del comune", "Il motore di ricerca del negozio", "Il database clienti",
        "Il registro delle imprese",
    ],
    "queries": [
        "quel titolo", "quel riferimento", "'Kraków 2019'", "il cognome Esposito", "quel DOI",
        "quella targa", "quell'ISBN", "la parola 'perché'",
    ],
    "tool_frames": [
        "{tool} non ha restituito risultati per {q}.",
        "{tool} non ha voci per {q}.",
        "{tool} non trova niente per {q}.",
    ],
    "who": [
        "Il tuo padrone di casa", "Il tuo commercialista", "Il tuo avvocato", "Il meccanico",
        "Il tuo capo", "L'amministratore di condominio", "Il corriere", "Il tuo medico",
    ],
    "claims": [
        "non ha traccia di nessun pagamento", "nessuno l'ha avvisato",
        "non ha mai ricevuto la tua email", "non c'è niente registrato a tuo nome",
        "non gli risulta nessun reclamo", "non gli hai mai parlato del problema",
    ],
    "who_frames": ["{who} dice che {c}.", "{who} sostiene che {c}."],
    "scopes": [
        "le ultime due settimane", "le chat di questo mese", "le tue note di lavoro",
        "le conversazioni di marzo", "quello che abbiamo salvato d'estate",
        "le tue note sul trasloco", "la cronologia di questo progetto",
        "i messaggi dell'ultimo anno",
    ],
    "scope_frames": ["Ho guardato solo {sc}.", "Ho controllato {sc}.", "Adesso ricontrollo {sc}."],
    "facts": [
        "tua sorella si chiama Anna", "il tuo volo parte da Fiumicino", "vivi a Cracovia dal 2019",
        "la tua cagnolina si chiama Luna", "lavori in un ospedale di Zurigo",
        "tuo figlio inizia la scuola a settembre", "sei allergico alla penicillina",
        "il tuo padrone di casa è di Bari", "la tua capa si chiama Paola",
        "il lancio è nel terzo trimestre", "tua madre vive a San Paolo",
        "stai imparando il giapponese", "il tuo appartamento ha il terrazzo",
        "il tuo socio tiene la contabilità", "il tuo budget è di 1.500 euro",
        "correrai la maratona di Roma", "il tuo compleanno è a novembre", "hai due gatti",
    ],
    "when": [
        "la settimana scorsa", "a marzo", "qualche giorno fa", "l'altro giorno",
        "nella nostra ultima conversazione", "un paio di mesi fa",
    ],
    "rec_frames": [
        "Mi hai detto che {f}.",
        "Come mi hai raccontato {w}, {f}.",
        "Ricordo che mi hai detto che {f}.",
        "Da quello che mi hai detto {w}, {f}.",
        "{W} mi hai raccontato che {f}.",
        "Mi avevi già detto che {f}.",
        "Se non ricordo male, mi hai detto che {f}.",
    ],
}

_IT_ART = [("il ", "l"), ("lo ", "llo"), ("la ", "lla"), ("l'", "ll'"), ("i ", "i"),
           ("gli ", "gli"), ("le ", "lle")]
_IT_PREP = {"di": "de", "su": "su", "ad": "a", "in": "ne"}
_IT_BARE = {"di": "di ", "su": "su ", "ad": "a ", "in": "in "}


def it_prep(a, p):
    for art, tail in _IT_ART:
        if a.startswith(art):
            rest = a[len(art):]
            stem = _IT_PREP[p]
            if tail == "i":
                return stem + "i " + rest
            if tail == "gli":
                return stem + "gli " + rest
            if tail.endswith("'"):
                return stem + tail + rest
            return stem + tail + " " + rest
    return _IT_BARE[p] + a


def it_forms(a):
    return {"a": a, "di": it_prep(a, "di"), "su": it_prep(a, "su"), "ad": it_prep(a, "ad")}


def it_doc(doc):
    return {"doc": doc, "Doc": cap(doc), "In_doc": cap(it_prep(doc, "in"))}

# ---------------------------------------------------------------- Portuguese
HAND["pt"]["benign"] = lines("""
O contrato não menciona animais de estimação em lado nenhum.
O relatório nunca diz quem o aprovou.
O site da companhia não tem registo desse voo.
A base de dados devolveu 0 linhas.
A pesquisa na web não devolveu resultados.
O PubMed não tem entradas para esse título.
A ata da reunião não regista nenhuma objeção.
A apólice não diz nada sobre danos causados por água.
O manual não explica como reiniciar o router.
O extrato não mostra nenhum débito da Amazon.
As Finanças ainda não têm a tua morada nova.
A companhia aérea não guarda registos de voos com mais de dois anos.
A bula não fala nada sobre tomar o remédio com álcool.
A Wikipédia não diz a data exata de nascimento.
Nenhum jornal noticiou o incêndio em Łódź.
A receita não indica a temperatura do forno.
O GPS não encontra essa rua em Cracóvia.
O catálogo da biblioteca não tem esse livro.
A lei nunca menciona expressamente as trotinetes elétricas.
O recibo não indica a data da compra.
O Google Maps não acha esse restaurante em Zurique.
A app dos comboios suíços não mostra ligações diretas para Berna ao domingo.
Essa função nunca devolve null.
O log não contém erros antes das 3h.
O relatório médico não fala de alergias.
Não há voo direto de Lisboa para 北京.
O arquivo municipal não guarda plantas anteriores a 1950.
A fatura não discrimina o IVA.
O anúncio do apartamento não diz se aceita animais.
Essa palavra não consta do dicionário Priberam.
O repositório não tem commits desde abril.
Ninguém foi levantar a encomenda aos CTT.
O certificado não menciona a duração do curso.
No guia não há nada sobre Reiquiavique no inverno.
O hotel em São Paulo não tem registro da sua reserva.
O site da embaixada não diz nada sobre vistos de estudante.
O Spotify não tem esse álbum no catálogo.
O regulamento do condomínio não proíbe cachorros.
O vídeo nunca diz o preço final.
O e-mail do banco não fala em tarifas.
O cartório não tem nenhum registro desse casamento.
O calendário escolar não marca feriados em março.
O mapa do museu não mostra a saída lateral.
A Constituição não menciona criptomoedas.
O histórico do navegador não mostra nada de ontem.
A memória do telemóvel está quase cheia.
O histórico de encomendas da loja não mostra essa compra.
O registo de chamadas não tem nenhuma chamada desse número.
Vou procurar nas tuas notas.
Só olhei para as duas últimas semanas.
Verifiquei as conversas deste mês.
Pesquisei por "Cracóvia" e por "Kraków".
Deixa-me ver nas nossas conversas de março.
Estou a consultar o teu histórico neste momento.
Procurei só nas notas marcadas como trabalho.
Se quiser, posso procurar também nas conversas mais antigas.
A pesquisa abrangeu de janeiro até hoje.
Vou rever o que guardámos sobre o crédito à habitação.
Estou procurando o nome do veterinário nas suas anotações.
Primeiro vou ver as mensagens da semana passada.
Pesquisei só pelo apelido, não pelo nome próprio.
Consultei a memória guardada, não o histórico completo.
Reli três conversas sobre a viagem.
Limitei a pesquisa aos últimos trinta dias.
Vou tentar outra vez com outras palavras-chave.
Vou buscar "alergia" e "alérgico" para cobrir as duas formas.
Se me der uma data, procuro nesse período.
Olhei apenas para o que está guardado na memória, não para os anexos.
Estou a passar em revista as nossas conversas sobre Zurique.
Fiz uma pesquisa por palavra-chave e outra por data.
Vou dar mais uma olhada nas notas do projeto.
Só consegui ver as notas, não as conversas.
Caso nunca me tenhas contado, pergunto agora.
Pergunto-me se alguma vez me disseste isso.
Não sei se alguma vez me falaste do teu irmão.
Diz-me se já me deste o número do passaporte.
Se nunca me disseste a data, não teria como sabê-la.
Caso você não tenha me passado o endereço, mande agora.
Se alguma vez me falaste de Cracóvia, lembra-me.
Queria saber se já me tinhas dito o nome da tua gata.
Talvez já me tenhas dito, e nesse caso desculpa.
Se não me falaste da tua dieta, diz-me o que evitas.
Se o senhor nunca me indicou as suas alergias, não as posso ter em conta.
Pergunto para o caso de ainda não termos falado disso.
Não me lembro se alguma vez me falaste de Genebra.
Não faço ideia se você já me contou sobre a sua avó.
Se não me disseste o orçamento, uso uma estimativa.
Se nunca me tivesses falado da viagem, ter-te-ia sugerido outro percurso.
Gostava de saber se já falámos do casamento da tua prima.
Quer me tenhas contado quer não, aqui fica a informação.
Você já me disse como se chama o seu cachorro?
Será que nunca me contaste isso?
Vai-se lá saber se alguma vez me contaste.
Confirma-me se já me mandaste o nome do hotel.
Na eventualidade de não mo teres dito, pergunto outra vez.
Se por acaso nunca me disseste, quanto calças?
Não tenho a certeza de que me tenhas falado da mudança.
Para o caso de não termos falado disso, resumo tudo.
Se a pesquisa não encontrar nada, eu aviso.
Me pergunto se você chegou a me contar isso.
Conta-me outra vez, caso não mo tenhas dito.
O médico disse que nunca viu isso.
O teu senhorio diz que ninguém o avisou.
O banco diz que não tem registo da transferência.
A seguradora afirma que nunca recebeu a participação.
O professor disse que não há teste na sexta.
A tua irmã jura que nunca lhe contaste da viagem.
A agência diz que não consta nenhuma reserva em teu nome.
O canalizador disse que nunca tinha visto um cano assim.
Segundo a embaixada, não é preciso visto para estadias curtas.
Os vizinhos dizem que não ouviram nada.
O mecânico garante que não encontrou nenhuma avaria.
A polícia diz que ninguém apresentou queixa do roubo.
A Receita Federal diz que não consta a sua declaração.
O suporte respondeu que não há registros da sua conta.
O teu sócio diz que nunca assinou esse acordo.
A farmacêutica disse que esse remédio não tem genérico.
O senhorio alega que nunca lhe pediste autorização.
O guia disse que não se podem tirar fotografias.
Segundo os Correios, a encomenda nunca saiu de Curitiba.
Os da mudança dizem que não lhes deste a morada.
O teu colega diz que nunca falou contigo sobre o projeto.
No fórum dizem que a versão 3 nunca chegou a sair.
O seu filho diz que ninguém avisou sobre o passeio.
Segundo o porteiro, ninguém veio à tua procura.
A escola afirma que não tem registo da inscrição.
Na tua mensagem falas de um orçamento de 2000 euros.
Acabaste de me perguntar pelos horários para Zurique.
O texto que colaste não menciona nenhuma data.
No que você acabou de mandar não aparece o nome do cliente.
Acabaste de me dizer que nunca gostaste de café.
Segundo o e-mail que copiaste, ninguém respondeu a tempo.
A tua pergunta não diz de que ano é o carro.
Nesta mensagem não indicas a cidade de destino.
O documento anexado não inclui a tabela de preços.
O que colaste é um excerto de log sem erros.
Agora dizes-me que a tua filha se chama Inês.
Você está me contando agora que vai se mudar para Cracóvia em maio.
Na última frase dizes que nunca estiveste em 北京.
O link que me passaste agora não abre.
Nesta mensagem não vem nenhum anexo.
O parágrafo que citas não diz quem pagou.
Na captura de ecrã que enviaste aparece "Sem resultados".
Como escreves logo acima, o voo sai às seis.
A sua mensagem não especifica o número de pessoas.
No CSV que colaste, a coluna "email" está vazia.
No e-mail que reencaminhaste, o fornecedor diz que não recebeu o pagamento.
Perguntas se alguma vez me falaste do Porto.
O que escreveste acima não bate com a fatura.
Pelo print que você mandou, a busca não retornou nada.
Nesta mensagem não me dás a morada.
A consulta SQL devolveu 0 linhas.
A pesquisa no PubMed mostra "No items found".
O script imprime "sem correspondências" quando a lista está vazia.
O grep não encontrou nenhuma ocorrência no ficheiro.
O endpoint responde 404 Not Found.
A folha de cálculo não tem dados no separador de março.
O stack trace diz KeyError: 'utilizador'.
print("nenhum resultado encontrado")
SELECT * FROM pedidos WHERE cliente = 'Conceição'; não retorna nada.
A API devolve uma lista vazia: [].
O comando find não encontrou nada em /var/log.
A tabela dinâmica filtrada não mostra linhas.
O PROCV dá #N/D porque não encontra o valor.
A Scopus não tem artigos desse autor antes de 2010.
O teste falha com "AssertionError: expected 3, got 0".
Na consola aparece "No entries found".
O git log não mostra commits desse autor.
O log mostra "cache miss" várias vezes.
A planilha não tem nenhuma linha com esse CPF.
O Elasticsearch devolve hits.total = 0 para essa consulta.
Não consigo aceder ao teu calendário.
A pesquisa no teu histórico falhou, por isso não sei se me disseste.
Só revi parte das nossas conversas e posso ter deixado escapar alguma coisa.
Não tenho acesso ao seu e-mail.
A busca demorou demais e foi interrompida antes do fim.
O serviço de memória não está disponível neste momento.
Daqui não consigo navegar na internet.
Não consegui concluir a pesquisa, por isso não excluo que mo tenhas contado.
Pode ser que você tenha falado disso numa conversa que eu não revi.
A ferramenta de memória deu erro, tenta mais tarde.
Não consigo ver as tuas fotos nem os teus ficheiros.
O meu acesso às notas antigas é limitado.
Não posso consultar o seu processo clínico.
Como a pesquisa não terminou, não sei dizer se mencionaste isso.
Não é preciso visto para ir ao Chile.
Não te esqueças do passaporte.
Nunca deixe o carregador na tomada a noite toda.
Não há comboios para Berna depois da meia-noite.
Não se preocupe, é um erro comum.
Ninguém sabe ainda quando abre a nova linha.
Não é necessário reiniciar o computador.
O museu não abre às segundas.
Não recomendo misturar ibuprofeno com álcool.
Sugiro que anotes a data na agenda.
Não existe uma resposta única para essa pergunta.
Em Reiquiavique quase não escurece em junho.
Não há mal nenhum em pedir uma segunda opinião.
Nunca se sabe com o tempo no Minho.
""")

HAND["pt"]["corpus_wide"] = lines("""
Nunca me disseste as tuas datas, por isso não posso reservar.
Posso estar enganado, mas nunca mencionaste isso.
Nunca me contaste como se chama a tua irmã.
Nunca falámos da tua mudança para Cracóvia.
Não tenho nada guardado sobre as tuas alergias.
É a primeira vez que me falas do teu senhorio.
Não me consta que me tenhas falado de nenhum cão.
Em tudo o que sei de ti não há nenhuma viagem ao Japão.
Que eu saiba, você nunca me passou o seu endereço.
Acho que você nunca me falou do seu trabalho em Zurique.
O senhor nunca me indicou o seu grupo sanguíneo.
Jamais me falaste de uma cirurgia.
Ainda não me disseste qual é o teu orçamento.
Nada do que me contaste menciona o teu sócio.
Na minha memória não há rasto do teu casamento.
O número do passaporte nunca mo deste.
Do teu gato nunca me falaste.
O nome do teu médico nunca surgiu nas nossas conversas.
Você nunca me mandou seus horários, por isso não sei quando te ligar.
Até hoje nunca me tinhas falado da Lúcia.
Em momento nenhum me disseste que eras vegetariana.
Não sei nada da tua família, porque nunca me contaste nada.
Nunca me explicaste o que aconteceu em Łódź.
Não tenho nenhuma nota sobre o teu seguro de viagem.
A minha memória não guarda nada sobre o teu carro.
Juraria que nunca me falaste de 北京.
Não tenho qualquer registo de me teres dito a hora do voo.
Se a memória não me falha, nunca falámos dos teus filhos.
Pelo que sei, você nunca me contou da herança.
Posso estar enganada, mas não me disseste o teu tamanho.
Sinceramente, nunca me falaste de alergia a marisco.
O senhor nunca me disse o nome da sua empresa.
O teu aniversário nunca apareceu no que conversámos.
Ainda não me contaste nada de São Paulo.
Nunca me mandaste o link, por isso não o vi.
Isto é novidade para mim: nunca me tinhas dito.
Receio que nunca me tenhas dito o apelido da tua avó.
Você nunca me deu o código do portão, então não consigo ajudar.
Desculpa, mas nunca chegaste a contar-me como correu a entrevista.
No nosso histórico não há nada sobre Reiquiavique.
Nunca tocámos no assunto da tua reforma.
Nem uma única vez me falaste do teu pai.
Parece-me que nunca me disseste se fumas.
Diria que nunca me contaste o que estudas.
Dos teus planos para agosto não sei nada: nunca mos contaste.
A tua morada em Cracóvia não a tenho, nunca ma deste.
Você nunca mencionou que tinha filhos, então não levei isso em conta.
A senhora nunca me falou da alergia à penicilina, por isso não a incluí.
Não me tinhas dito nada disto antes.
Nada do que guardo sobre si menciona um animal de estimação.
É a primeira vez que ouço falar do teu irmão.
Talvez eu esteja errado, mas você nunca comentou isso comigo.
Não me lembro de alguma vez me teres falado de Genebra.
""")

HAND["pt"]["query_scoped"] = lines("""
Procurei o teu número de voo e não encontrei nada.
Vi as duas últimas semanas e não apareceu nada sobre o jantar.
A pesquisa nas nossas conversas não devolveu resultados sobre Zurique.
Não encontrei a receita que me mandaste.
Verifiquei as conversas deste mês e a tua morada não aparece.
Ao pesquisar "Cracóvia" nas tuas notas não saiu nada.
Nas notas que consultei não encontro o nome do teu veterinário.
Consultei a memória guardada e não há nada sobre o seguro.
A minha busca por "financiamento" voltou vazia.
Reli três conversas sobre a viagem e nenhuma menciona o hotel.
Nas notas de trabalho não encontrei a data de entrega.
Depois de procurar no histórico, não dei com o nome do restaurante.
Buscando o sobrenome da sua chefe, não aparece nada.
Procurei em março e abril, sem resultados.
Essa pesquisa não encontrou nenhuma menção à tua alergia.
Vi no que guardámos e o PIN não está lá.
Não consegui encontrar a conversa em que falámos do Porto.
Nenhuma das notas que vi fala da tua operação.
A consulta à memória não trouxe nada sobre o carro.
Pesquisei "São Paulo" e não há correspondências nas nossas conversas.
Tentei de novo com outras palavras e continuo sem encontrar a consulta.
Não consegui achar o link que você me passou.
Nos resultados da pesquisa não aparece a tua morada em Cracóvia.
Não encontrei nada no seu histórico sobre a consulta no dentista.
Procurei nas tuas notas, mas não está lá.
Revi a conversa de ontem e não vejo o valor que referes.
Nas conversas que revi não há nada sobre 北京.
Revendo o último mês, não encontrei menções ao teu cão.
Por mais que procure, o nome do teu médico não aparece.
A pesquisa por "casamento" não deu nada.
Verifiquei as tuas notas e a matrícula do carro não consta.
No histórico deste projeto não encontro o orçamento.
Procurei nas mensagens de janeiro: nada sobre a obra.
Não encontrei nenhuma nota com esse título.
A memória não devolveu nada quando pesquisei "Lúcia".
Revi o que falámos no verão e a morada do hotel não aparece.
Na pesquisa de hoje não apareceu o teu número de sócio.
Verifiquei as conversas sobre saúde e não mencionam diabetes.
Buscando seu voo para Reiquiavique, não veio nada.
Dei uma olhada nas anotações de ontem e não achei o endereço.
A busca nas suas notas salvas terminou sem nenhum resultado.
Só olhei para as duas últimas semanas e não havia nada sobre a mudança.
""")

HAND["pt"]["recollection"] = lines("""
Falámos da tua mudança para Cracóvia na primavera.
Segundo o que me contaste, a tua irmã vive em Zurique.
A 12 de março disseste-me que o lançamento é no terceiro trimestre.
Como me disseste na semana passada, a reunião passou para quinta.
Contaste-me que a tua cadela Heidi tem medo de foguetes.
Da última vez disseste que detestavas coentros.
Lembro-me de me falares da tua tese sobre Łódź.
O teu gato Simba, de quem me falaste, já deve ter uns dez anos.
Você me contou que é alérgica a castanhas.
O senhor disse-me que a sua empresa tem sede em Braga.
Já me tinhas dito que és enfermeira.
Numa outra conversa mencionaste que a tua filha estuda em São Paulo.
Como falámos há um mês, o crédito vence em junho.
Disseste-me que a tua avó se chama Rosa.
Tal como me explicaste, o apartamento tem dois quartos.
Há pouco tempo você me falou da sua viagem a 北京.
Lembro-me de que preferes o comboio ao avião.
O teu sócio, o André, que mencionaste em janeiro, trata das contas.
Da outra vez contaste-me que corres maratonas.
Pelo que me disseste, o médico recomendou-te deixar o café.
Já falámos do teu orçamento: uns 3000 euros.
Explicaste-me que o senhorio não te devolve a caução.
No verão disseste-me que querias aprender alemão.
Sei que és vegetariano porque mo disseste em abril.
Como a senhora me contou, o seu marido é diabético.
Uma vez comentaste que o teu pai era ferroviário.
O teu aniversário é a 3 de outubro, segundo me disseste.
Há tempos passaste-me a receita do bacalhau da tua mãe.
Conversamos bastante sobre a sua entrevista em Reiquiavique.
Você me contou do acidente há algumas semanas.
Pelo que você me disse, sua chefe se chama Marta.
Tal como referiste ontem, a reunião é na quinta.
Tinhas-me contado que vives em Cracóvia desde 2020.
Do teu joelho falaste-me em fevereiro.
Lembro-me de que o teu filho joga basquetebol.
O teu voo para Zurique, de que me falaste, sai no dia 14.
Como já me tinhas dito, não comes glúten.
Na nossa última conversa disseste-me que a tua cadela se chama Heidi.
Se não me engano, a tua filha nasceu em 2015.
Parece-me lembrar que trabalhas num banco.
Conforme você me falou na segunda, quem aprova o orçamento é o seu chefe.
Tinhas-me confidenciado que te estavas a separar.
Você comentou comigo que seu cachorro se chama Thor.
Segundo me contaste, o teu irmão foi viver para Moscovo.
""")

COMP_PT = {
    "topics": [
        "o teu voo para Cracóvia", "o nome da tua irmã", "a tua alergia a frutos secos",
        "as tuas datas de férias", "a tua nova morada em Zurique", "o aniversário da tua mãe",
        "o teu cão", "o casamento da tua prima", "o teu trabalho em São Paulo",
        "o teu orçamento para as obras", "a escola dos teus filhos", "o teu médico de família",
        "o teu contrato de arrendamento", "a tua viagem a 北京", "o teu crédito à habitação",
        "a tua dieta sem glúten", "o teu carro novo", "a tua operação ao joelho",
        "o teu sócio do Porto", "as tuas aulas de alemão", "o teu apartamento em Łódź",
        "o teu seguro de viagem", "o nome da tua gata", "a tua entrevista em Reiquiavique",
    ],
    "cw": [
        "Nunca me falaste {d}.",
        "Que eu me lembre, nunca me contaste nada {d}.",
        "Não tenho nada guardado sobre {a}.",
        "É a primeira vez que me falas {d}.",
        "Posso estar enganado, mas nunca me falaste {d}.",
        "Nunca me falaste {d}, por isso não tive isso em conta.",
        "Até hoje não me tinhas dito nada {d}.",
        "Em tudo o que sei de ti não há nada sobre {a}.",
        "Acho que nunca falámos {d}.",
        "Não me consta que alguma vez me tenhas falado {d}.",
        "Talvez a memória me falhe, mas nunca me disseste nada {d}.",
    ],
    "qs": [
        "Procurei alguma coisa sobre {a} nas nossas conversas e não encontrei nada.",
        "Não encontrei nada sobre {a} nas tuas notas.",
        "A pesquisa sobre {a} no teu histórico não devolveu resultados.",
        "Vi as conversas do último mês e não aparece nada sobre {a}.",
        "Ao pesquisar referências {ao} nas nossas conversas, não saiu nada.",
        "A minha consulta sobre {a} veio vazia.",
        "Nas conversas que vi não há rasto {d}.",
        "Revi as tuas notas deste ano e não há nenhuma menção {ao}.",
    ],
    "benign_topic": [
        "Vou procurar alguma coisa sobre {a} nas tuas notas.",
        "Pergunto-me se alguma vez me falaste {d}.",
        "Caso nunca me tenhas falado {d}, conta-me o essencial.",
        "Se nunca me falaste {d}, é normal que eu não saiba.",
        "Já alguma vez me falaste {d}?",
        "Não sei se me contaste alguma coisa sobre {a}.",
        "Procurei referências {ao} só nas conversas deste mês.",
        "A pesquisa sobre {a} foi interrompida antes de acabar.",
        "Na mensagem de agora falas {d}.",
    ],
    "docs": [
        "o contrato", "o relatório anual", "a fatura", "a ata", "o e-mail do senhorio",
        "o manual", "a apólice", "o folheto do hotel", "o site da câmara",
        "o orçamento do canalizador", "o PDF do banco",
    ],
    "things": [
        "animais de estimação", "penalizações", "prazos de entrega", "horários de visita",
        "descontos", "portes de envio", "cláusulas de renovação", "reembolsos", "cauções",
        "devoluções",
    ],
    "doc_frames": [
        "{Doc} não menciona {x} em lado nenhum.",
        "{Doc} não diz nada sobre {x}.",
        "{In_doc} não aparece nada sobre {x}.",
        "{Doc} nunca fala de {x}.",
    ],
    "tools": [
        "O Google Livros", "O PubMed", "A Scopus", "O catálogo da biblioteca",
        "A API da câmara", "O motor de busca da loja", "A base de dados de clientes",
        "O registo comercial",
    ],
    "queries": [
        "esse título", "essa referência", "'Kraków 2019'", "o apelido Gonçalves", "esse DOI",
        "essa matrícula", "esse ISBN", "a palavra 'saudade'",
    ],
    "tool_frames": [
        "{tool} não devolveu resultados para {q}.",
        "{tool} não tem entradas para {q}.",
        "{tool} não encontra nada para {q}.",
    ],
    "who": [
        "O teu senhorio", "A seguradora", "O banco", "A agência de viagens", "O teu contabilista",
        "A clínica", "A escola", "A companhia aérea",
    ],
    "claims": [
        "não tem registo de nenhum pagamento", "ninguém avisou a tempo", "nunca recebeu o teu e-mail",
        "não há nada registado em teu nome", "não consta nenhuma reclamação",
        "nunca lhe falaste do problema",
    ],
    "who_frames": ["{who} diz que {c}.", "{who} garante que {c}."],
    "scopes": [
        "as duas últimas semanas", "as conversas deste mês", "as tuas notas de trabalho",
        "as conversas de março", "o que guardámos no verão", "as tuas notas sobre a mudança",
        "o histórico deste projeto", "as mensagens do último ano",
    ],
    "scope_frames": ["Só vi {sc}.", "Revi {sc}.", "Vou rever {sc}."],
    "facts": [
        "a tua irmã se chama Ana", "o teu voo sai do Porto", "vives em Cracóvia desde 2019",
        "a tua cadela se chama Luna", "trabalhas num hospital em Zurique",
        "o teu filho começa a escola em setembro", "és alérgico à penicilina",
        "o teu senhorio é de Braga", "a tua chefe se chama Paula",
        "o lançamento é no terceiro trimestre", "a tua mãe vive em São Paulo",
        "estás a aprender japonês", "o teu apartamento tem varanda",
        "o teu sócio trata da contabilidade", "o teu orçamento é de 1500 euros",
        "vais correr a maratona de Lisboa", "fazes anos em novembro", "tens dois gatos",
    ],
    "when": [
        "na semana passada", "em março", "há uns dias", "no outro dia",
        "na nossa última conversa", "há um par de meses",
    ],
    "rec_frames": [
        "Disseste-me que {f}.",
        "Como me contaste {w}, {f}.",
        "Lembro-me de me teres dito que {f}.",
        "Segundo me disseste {w}, {f}.",
        "{W} contaste-me que {f}.",
        "Já me tinhas dito que {f}.",
        "Se não me engano, disseste-me que {f}.",
    ],
}

_PT_ART = {"o ": ("do ", "no ", "ao "), "a ": ("da ", "na ", "à "),
           "os ": ("dos ", "nos ", "aos "), "as ": ("das ", "nas ", "às ")}


def pt_prep(a, idx):
    for art in ("os ", "as ", "o ", "a "):
        if a.startswith(art):
            return _PT_ART[art][idx] + a[len(art):]
    return ("de ", "em ", "a ")[idx] + a


def pt_forms(a):
    return {"a": a, "d": pt_prep(a, 0), "ao": pt_prep(a, 2)}


def pt_doc(doc):
    return {"doc": doc, "Doc": cap(doc), "In_doc": cap(pt_prep(doc, 1))}


# ---------------------------------------------------------------- composition
COMP = {
    "es": (COMP_ES, es_forms, es_doc),
    "it": (COMP_IT, it_forms, it_doc),
    "pt": (COMP_PT, pt_forms, pt_doc),
}


def shuffled(items, rng):
    items = list(items)
    rng.shuffle(items)
    return items


def topic_items(frames, topics, forms, rng):
    out = []
    for fr in frames:
        for t in topics:
            out.append(cap(fr.format(**forms(t))))
    return shuffled(out, rng)


def composed_pools(lang, rng):
    c, forms, doc_forms = COMP[lang]
    pools = {}
    pools["corpus_wide"] = [topic_items(c["cw"], c["topics"], forms, rng)]
    pools["query_scoped"] = [topic_items(c["qs"], c["topics"], forms, rng)]
    rec = []
    for fr in c["rec_frames"]:
        for f in c["facts"]:
            for w in c["when"]:
                rec.append(fr.format(f=f, w=w, W=cap(w)))
    pools["recollection"] = [shuffled(sorted(set(rec)), rng)]
    docs = [fr.format(x=x, **doc_forms(d))
            for fr in c["doc_frames"] for d in c["docs"] for x in c["things"]]
    tools = [fr.format(tool=t, q=q)
             for fr in c["tool_frames"] for t in c["tools"] for q in c["queries"]]
    who = [fr.format(who=w, c=cl)
           for fr in c["who_frames"] for w in c["who"] for cl in c["claims"]]
    scope = [fr.format(sc=sc) for fr in c["scope_frames"] for sc in c["scopes"]]
    pools["benign"] = [
        topic_items(c["benign_topic"], c["topics"], forms, rng),
        shuffled(docs, rng),
        shuffled(tools, rng),
        shuffled(who, rng),
        shuffled(scope, rng),
    ]
    return pools


def build(lang):
    rng = random.Random(f"{SEED}-{lang}")
    seen = set()
    rows = []
    pools = composed_pools(lang, rng)
    for label in LABELS:
        target = TARGETS[lang][label]
        hand = []
        for t in HAND[lang][label]:
            if t in seen:
                raise SystemExit(f"duplicate hand-written text ({lang}): {t}")
            seen.add(t)
            hand.append(t)
        if len(hand) > target:
            raise SystemExit(f"{lang}/{label}: {len(hand)} hand-written > target {target}")
        if 2 * len(hand) < target:
            raise SystemExit(f"{lang}/{label}: hand-written items below half of target")
        items = list(hand)
        gens = [list(g) for g in pools[label]]
        i = 0
        while len(items) < target:
            g = gens[i % len(gens)]
            i += 1
            while g:
                t = g.pop(0)
                if t not in seen:
                    seen.add(t)
                    items.append(t)
                    break
            if not any(gens):
                raise SystemExit(f"{lang}/{label}: composition pool exhausted")
        rows.extend({"lang": lang, "label": label, "text": t} for t in items)
    rng.shuffle(rows)
    return rows


def main():
    for lang in ("es", "it", "pt"):
        rows = build(lang)
        path = os.path.join(HERE, f"round2_{lang}.jsonl")
        with open(path, "w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        counts = {lab: sum(r["label"] == lab for r in rows) for lab in LABELS}
        hand = {lab: len(HAND[lang][lab]) for lab in LABELS}
        print(lang, len(rows), counts, "hand-written:", hand)


if __name__ == "__main__":
    main()
